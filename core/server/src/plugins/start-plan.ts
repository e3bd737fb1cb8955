import { satisfies } from '@linguaport/sdk/shared';
import type { DeployedPlugin } from './deployment.js';

/** Why a plugin did not start, in both languages (plug-in management shows it). */
export interface BlockedReason {
  'zh-CN': string;
  'en-US': string;
}

/**
 * The order the enabled plugins start in, and those that cannot start. A plugin starts after the
 * plugins it depends on and the providers of the services it consumes. It is held back, with the
 * reason, when a dependency is not on (or not in a version it accepts), when no plugin on provides a
 * service it needs, when another plugin already provides a service it offers, when something it
 * needs is itself held back, or when it is part of a dependency cycle. The rest of the platform starts.
 */
export function planStart(enabled: DeployedPlugin[]): { order: DeployedPlugin[]; blocked: Map<string, BlockedReason> } {
  const byId = new Map(enabled.map((p) => [p.id, p]));
  const blocked = new Map<string, BlockedReason>();
  const providers = new Map<string, string>();
  for (const p of enabled) {
    for (const name of p.manifest.provides) {
      const first = providers.get(name);
      if (first) blocked.set(p.id, { 'zh-CN': `服务 ${name} 已由插件 ${first} 提供`, 'en-US': `service ${name} is already provided by plugin ${first}` });
      else providers.set(name, p.id);
    }
  }
  /** What a plugin waits for: its dependencies and the providers of what it consumes (optional ones when present). */
  const needs = (p: DeployedPlugin): Array<{ id: string | undefined; required: boolean; what: BlockedReason }> => [
    ...p.manifest.dependsOn.map((d) => ({ id: d.id, required: true, what: { 'zh-CN': `插件 ${d.id}`, 'en-US': `plugin ${d.id}` } })),
    ...p.manifest.consumes.map((c) => ({ id: providers.get(c.service), required: !c.optional, what: { 'zh-CN': `服务 ${c.service}`, 'en-US': `service ${c.service}` } })),
  ];

  for (const p of enabled) {
    if (blocked.has(p.id)) continue;
    for (const d of p.manifest.dependsOn) {
      const dep = byId.get(d.id);
      if (!dep) {
        blocked.set(p.id, { 'zh-CN': `需要插件 ${d.id}，但它未启用`, 'en-US': `needs plugin ${d.id}, which is not enabled` });
        break;
      }
      if (d.version && !satisfies(dep.manifest.version, d.version)) {
        blocked.set(p.id, { 'zh-CN': `需要插件 ${d.id} ${d.version}，当前为 ${dep.manifest.version}`, 'en-US': `needs plugin ${d.id} ${d.version}, found ${dep.manifest.version}` });
        break;
      }
    }
    if (blocked.has(p.id)) continue;
    const missing = p.manifest.consumes.find((c) => !c.optional && !providers.has(c.service));
    if (missing) blocked.set(p.id, { 'zh-CN': `需要服务 ${missing.service}，但没有启用的插件提供它`, 'en-US': `needs service ${missing.service}, which no enabled plugin provides` });
  }

  // Held back in turn: whoever needs a held-back plugin (until nothing changes).
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of enabled) {
      if (blocked.has(p.id)) continue;
      const hit = needs(p).find((n) => n.id && n.required && blocked.has(n.id));
      if (hit) {
        const why = blocked.get(hit.id!)!;
        blocked.set(p.id, { 'zh-CN': `需要的${hit.what['zh-CN']}无法启动（${why['zh-CN']}）`, 'en-US': `needs ${hit.what['en-US']}, which cannot start (${why['en-US']})` });
        changed = true;
      }
    }
  }

  // Dependencies first, otherwise the deployment set's order (Kahn's algorithm, stable).
  const order: DeployedPlugin[] = [];
  const placed = new Set<string>();
  const waiting = enabled.filter((p) => !blocked.has(p.id));
  while (waiting.length) {
    const next = waiting.findIndex((p) => needs(p).every((n) => !n.id || n.id === p.id || placed.has(n.id) || blocked.has(n.id)));
    if (next < 0) {
      const names = waiting.map((p) => p.id).join(' → ');
      for (const p of waiting) blocked.set(p.id, { 'zh-CN': `插件之间循环依赖：${names}`, 'en-US': `dependency cycle among plugins: ${names}` });
      break;
    }
    const [p] = waiting.splice(next, 1);
    order.push(p!);
    placed.add(p!.id);
  }
  return { order, blocked };
}
