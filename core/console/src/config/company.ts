import type { HttpClient } from '../http/client.js';

export interface ConfigEntry {
  configKey: string;
  configValue: string | null;
}

export const DEFAULT_THEME_COLOR = '#353f9d';

/** The company-information configuration loaded at start (spec 01 sections 1 and 3). */
export class CompanyConfig {
  constructor(private readonly entries: ReadonlyMap<string, string | null> = new Map()) {}

  static from(list: ConfigEntry[] | null | undefined): CompanyConfig {
    return new CompanyConfig(new Map((list ?? []).map((e) => [e.configKey, e.configValue])));
  }

  get(key: string): string | null {
    return this.entries.get(key) ?? null;
  }

  get themeColor(): string {
    const c = this.get('SYSTEM_COLOR');
    return c && /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : DEFAULT_THEME_COLOR;
  }

  get siteTitle(): string {
    return this.get('SITE_TITLE') ?? '';
  }

  /** Default languages become an empty string when the server value is null (spec 01 section 5). */
  get defaultSourceLanguage(): string {
    return this.get('DEFAULT_SOURCE_LANGUAGE') ?? '';
  }

  get defaultTargetLanguage(): string {
    return this.get('DEFAULT_TARGET_LANGUAGE') ?? '';
  }

  get logo(): string | null {
    return this.get('COMPANY_LOGO');
  }

  /** The log-out button shows only when IS_HAVE_LOG_OUT is set (spec 01 2.7). */
  get hasLogout(): boolean {
    const v = this.get('IS_HAVE_LOG_OUT');
    return v !== null && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  }
}

export async function loadCompanyConfig(http: HttpClient): Promise<CompanyConfig> {
  try {
    return CompanyConfig.from(await http.options<ConfigEntry[]>('/systemConfig/getCompanyInfoConfig', { silent: true }));
  } catch {
    // The console still starts with defaults when the configuration cannot be read.
    return new CompanyConfig();
  }
}

export function applyTheme(config: CompanyConfig, root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--lp-theme', config.themeColor);
}
