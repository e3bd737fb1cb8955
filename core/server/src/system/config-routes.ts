import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, type EventBus, type FileStorage, type RouteDefinition, uploadedFileSchema } from '@linguaport/sdk/server';
import { can } from '../access/passwords.js';
import { localeOf } from '../http/locale.js';
import { isSecret, readEntries, updateEntries, type ConfigEntry } from './settings.js';
import { rasteriseSvg, SvgRefusal } from './svg-picture.js';
import type { KernelTables } from '../db/schema.js';

/** System configuration calls (spec 01 section 7.3). Keys: systemConfig:view, systemConfig:edit. */

export const PICTURE_URL = '/systemConfig/picture';
const MAX_PICTURE_BYTES = 2 * 1024 * 1024;

/** Image types accepted for pictures, recognised by their first bytes (the declared type is not trusted). */
const PICTURE_TYPES: { ext: string; mime: string; matches(b: Buffer): boolean }[] = [
  { ext: 'png', mime: 'image/png', matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: 'jpg', mime: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'webp', mime: 'image/webp', matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { ext: 'svg', mime: 'image/svg+xml', matches: (b) => /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(b.subarray(0, 4096).toString('utf8')) },
];

// Secret entries are not listed to the public at all; readEntries masks them for everyone else.
const publicEntry = (e: ConfigEntry) => !isSecret(e);
const flagOn = async (db: Kysely<KernelTables>, key: string) =>
  (await db.selectFrom('system_config').select('config_value').where('config_key', '=', key).executeTakeFirst())?.config_value === '1';

const change = z.object({ configKey: z.string().trim().min(1), configValue: z.union([z.string(), z.number(), z.boolean()]).transform((v) => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v)).trim()) });
/** One entry, a list of entries, or {entries: [...]}: the console's forms send all three shapes. */
const changes = z.union([change.transform((c) => [c]), z.array(change).min(1), z.object({ entries: z.array(change).min(1) }).transform((b) => b.entries)]);

const CONFIG_GROUPS = ['company', 'contact', 'translation', 'switch', 'picture', 'account'] as const;
/** A configuration entry (`ConfigEntry`); a secret's value is masked. */
const configEntry = z.object({
  configKey: z.string(),
  configValue: z.string().nullable(),
  configName: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  group: z.enum(CONFIG_GROUPS),
  valueType: z.enum(['text', 'color', 'flag', 'integer', 'image', 'language', 'secret']),
  width: z.number().int().nullable().describe('A picture entry: its width in pixels'),
  height: z.number().int().nullable(),
});
const flag = { data: z.boolean() };
const updated = { data: z.object({ updated: z.array(z.string()).describe('The keys changed') }) };


export interface ConfigRouteDeps {
  db: Kysely<KernelTables>;
  bus: EventBus;
  storage: FileStorage;
  now: () => Date;
}

export function configRoutes({ db, bus, storage, now }: ConfigRouteDeps): RouteDefinition[] {
  const viewAccess = { anyPermission: ['systemConfig:view', 'systemConfig:edit'] };
  return [
    {
      method: 'OPTIONS',
      url: '/systemConfig/getCompanyInfoConfig',
      access: 'public',
      summary: "Get the console's public configuration (branding, languages, switches)",
      response: { data: z.array(z.object({ configKey: z.string(), configValue: z.string().nullable() })) },
      // The console's bootstrap list (theme colour, default languages, logo, title, switches, filing number).
      handler: async () => (await readEntries(db, ['company', 'picture', 'switch', 'contact'])).filter(publicEntry).map((e) => ({ configKey: e.configKey, configValue: e.configValue })),
    },
    { method: 'OPTIONS', url: '/systemConfig/getGuestUserFlag', access: 'public', summary: 'Whether guest sign-in is on', response: flag, handler: () => flagOn(db, 'GUEST_LOGIN') },
    { method: 'OPTIONS', url: '/systemConfig/getLandingSliderFlag', access: 'public', summary: 'Whether the landing page slider is on', response: flag, handler: () => flagOn(db, 'LANDING_SLIDER') },
    { method: 'GET', url: '/systemConfig/isAllowRegister', access: 'public', summary: 'Whether self-registration is on', response: flag, handler: () => flagOn(db, 'ALLOW_REGISTER') },
    {
      method: 'GET',
      url: '/systemConfig/getContactUsInfo',
      access: 'public',
      summary: 'Get the contact information',
      response: { data: z.array(z.object({ configKey: z.string(), configName: z.string(), configValue: z.string() })) },
      handler: async ({ headers }) => {
        const zh = localeOf(headers) === 'zh-CN';
        return (await readEntries(db, ['contact'])).map((e) => ({ configKey: e.configKey, configName: zh ? e.nameZh : e.nameEn, configValue: e.configValue ?? '' }));
      },
    },
    {
      method: 'GET',
      url: '/systemConfig/getConfig',
      access: viewAccess,
      summary: 'List system configuration entries',
      schema: { query: z.object({ group: z.enum(CONFIG_GROUPS).optional() }) },
      response: { data: z.array(configEntry) },
      handler: ({ query }) => readEntries(db, query.group ? [query.group] : undefined),
    },
    {
      method: 'GET',
      url: '/systemConfig/getSystemConfig',
      access: viewAccess,
      summary: 'List translation and account settings',
      response: { data: z.array(configEntry) },
      // The translation and account settings (caps, limits, password rules).
      handler: () => readEntries(db, ['translation', 'account']),
    },
    {
      method: 'GET',
      url: '/systemConfig/getOneConfigInfo',
      access: 'signed-in',
      summary: 'Get one system configuration entry',
      response: { data: configEntry, errors: [404] },
      schema: { query: z.object({ configKey: z.string().min(1) }) },
      async handler({ query, caller }) {
        const entry = (await readEntries(db)).find((e) => e.configKey === query.configKey);
        if (!entry) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `配置键 ${query.configKey} 不存在`, 'en-US': `No configuration key ${query.configKey}` });
        if (!publicEntry(entry) && !can(caller, 'systemConfig:view') && !can(caller, 'systemConfig:edit')) {
          throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '无权限：此配置项需要 systemConfig:view 权限', 'en-US': 'Permission denied: this entry needs the permission systemConfig:view' });
        }
        return entry;
      },
    },
    {
      method: 'PUT',
      url: '/systemConfig/updateConfig',
      access: { permission: 'systemConfig:edit' },
      module: 'systemConfig',
      summary: 'Update system configuration',
      response: updated,
      schema: { body: changes },
      handler: async ({ body }) => ({ updated: await updateEntries(db, bus, body, now()) }),
    },
    {
      method: 'PUT',
      url: '/systemConfig/updateSystemConfig',
      access: { permission: 'systemConfig:edit' },
      module: 'systemConfig',
      summary: 'Update translation settings',
      response: updated,
      schema: { body: changes },
      handler: async ({ body }) => ({ updated: await updateEntries(db, bus, body, now()) }),
    },
    {
      method: 'POST',
      url: '/systemConfig/updatePictureConfig',
      access: { permission: 'systemConfig:edit' },
      module: 'systemConfig',
      summary: 'Update a picture',
      response: { data: z.object({ configKey: z.string(), configValue: z.string().describe('The picture\'s address'), width: z.number().int().nullable(), height: z.number().int().nullable() }) },
      // A little over the limit still reaches the handler, which names it; far over is refused while reading.
      upload: { maxBytes: MAX_PICTURE_BYTES + 1024 },
      schema: { body: z.object({ configKey: z.string().min(1), file: uploadedFileSchema }) },
      async handler({ body }) {
        const entry = (await readEntries(db)).find((e) => e.configKey === body.configKey);
        if (!entry) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：${body.configKey}: 配置键不存在（只有已存在的键才能修改）`, 'en-US': `Invalid request: ${body.configKey}: no such configuration key (an entry can be changed only if its key exists)` });
        if (entry.valueType !== 'image') throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：${body.configKey} 不是图片配置项`, 'en-US': `Invalid request: ${body.configKey} is not a picture entry` });
        const data = body.file.data;
        if (data.length === 0) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '请求无效：file: 图片为空', 'en-US': 'Invalid request: file: the picture is empty' });
        if (data.length >= MAX_PICTURE_BYTES) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：file: 图片大小为 ${data.length} 字节，必须小于 2 MB`, 'en-US': `Invalid request: file: the picture is ${data.length} bytes; it must be under 2 MB` });
        let type = PICTURE_TYPES.find((t) => t.matches(data));
        if (!type) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '请求无效：file: 图片必须是 PNG、JPEG、SVG 或 WebP', 'en-US': 'Invalid request: file: the picture must be PNG, JPEG, SVG or WebP' });
        let stored = data;
        if (type.ext === 'svg') {
          // An SVG may carry script, foreign HTML and outside references: it is stored drawn as a PNG (twice the entry's size, for sharp screens).
          try {
            stored = await rasteriseSvg(data, entry.width && entry.height ? { width: entry.width * 2, height: entry.height * 2 } : undefined);
          } catch (err) {
            if (!(err instanceof SvgRefusal)) throw err;
            throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '请求无效：file: 无法读取该 SVG 图片', 'en-US': `Invalid request: file: ${err.message}` });
          }
          type = PICTURE_TYPES.find((t) => t.ext === 'png')!;
        }
        // Content-addressed name: a new picture gets a new URL, so browsers may cache forever.
        const name = `${body.configKey.toLowerCase()}-${createHash('sha256').update(stored).digest('hex').slice(0, 16)}.${type.ext}`;
        await storage.put(`pictures/${name}`, stored);
        const url = `/api${PICTURE_URL}/${name}`;
        await updateEntries(db, bus, [{ configKey: body.configKey, configValue: url }], now());
        return { configKey: body.configKey, configValue: url, width: entry.width, height: entry.height };
      },
    },
    {
      method: 'GET',
      url: `${PICTURE_URL}/:name`,
      access: 'public',
      summary: 'Get an uploaded configuration picture',
      response: { envelope: false, contentType: 'image/*', errors: [404] },
      schema: { params: z.object({ name: z.string().regex(/^[a-z_]+-[0-9a-f]{16}\.(png|jpg|webp|svg)$/) }) },
      async handler({ params }) {
        const key = `pictures/${params.name}`;
        if (!(await storage.exists(key))) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `图片 ${params.name} 不存在`, 'en-US': `No picture ${params.name}` });
        const type = PICTURE_TYPES.find((t) => params.name.endsWith(`.${t.ext}`))!;
        return {
          raw: true as const,
          contentType: type.mime,
          body: await storage.get(key),
          // An SVG may carry script: served under a CSP that runs none, and never sniffed.
          headers: { 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
        };
      },
    },
  ];
}
