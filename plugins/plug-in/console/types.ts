/** Shapes of the /api/plugIn answers, which the kernel serves under this plugin's id (see README.md). */
export interface PluginRow {
  id: string;
  name: Record<'zh-CN' | 'en-US', string>;
  source: 'builtin' | 'package';
  type: 'console' | 'download';
  version: string;
  previousVersion: string | null;
  stagedVersion: string | null;
  fileName: string | null;
  description: string | null;
  published: boolean;
  enabled: boolean;
  deployed: boolean;
  live: boolean;
  publisher: string | null;
  signatureState: string;
  logo: string | null;
  serverPart: 'running' | 'off' | 'failed' | null;
  serverError?: string | null;
  updateTime: string;
  failures: number;
  failureUsers: number;
  flagged: boolean;
}

export interface PluginDetails extends PluginRow {
  routes: { path: string; view: string; menu: boolean; parent: string | null }[];
  menus: { path: string; key: string; group: string | null }[];
  permissions: { key: string; type: string; name: Record<'zh-CN' | 'en-US', string> }[];
  sdk: string;
  recentFailures: { version: string; kind: string; message: string; user_id: number; created_at: string }[];
}

export interface TrustedKeyRow {
  keyId: string;
  name: string;
  publicKey: string;
  allowServer: boolean;
  createTime: string;
}
