import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { createUserWithRole, startTestKernel, type TestKernel } from './kernel.js';

/** A language-resource area (memories, term bases) as its import tests drive it. */
export interface ResourceArea {
  /** The plugin id, also its config file (`DATA_DIR/config/<plugin>.json`) and its permission prefix. */
  plugin: string;
  /** The area's routes under `/api` (`/api/TM`, `/api/term`): `<routes>/library/add`, `<routes>/import`. */
  routes: string;
  /** The table of its entries (`tm_entries`), counted per `library_id`. */
  table: string;
}

export interface ResourceImportKernel {
  kernel: TestKernel;
  /** Adds a department-shared library and gives its id. */
  library(name: string): Promise<number>;
  /** Posts one file to the area's import (en to es) in `locale`, with any other form `fields` (`duplicates`): the HTTP status and the envelope. */
  upload(name: string, content: Buffer, locale: 'en-US' | 'zh-CN', libraryId: number, fields?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** How many entries a library holds. */
  entries(libraryId: number): Promise<number>;
}

/**
 * A kernel with only `area` enabled, its config file holding `config`, and a user who may view,
 * manage libraries and import; the area's import and entry count as the tests call them.
 */
export async function startResourceImportKernel(area: ResourceArea, config: Record<string, unknown>): Promise<ResourceImportKernel> {
  const kernel = await startTestKernel({
    plugins: [area.plugin],
    prepare: (c) => {
      mkdirSync(join(c.dataDir, 'config'), { recursive: true });
      writeFileSync(join(c.dataDir, 'config', `${area.plugin}.json`), JSON.stringify(config));
    },
  });
  const user = `${area.plugin}-sheets`;
  await createUserWithRole(kernel, user, 'Sheets-Passw0rd!', 'sheet importers', ['view', 'library', 'import'].map((right) => `${area.plugin}:${right}`));
  const token = await kernel.login(user, 'Sheets-Passw0rd!');
  return {
    kernel,
    async library(name) {
      const res = await kernel.app.inject({ method: 'POST', url: `${area.routes}/library/add`, headers: { jwt: token }, payload: { name, ownership: 'department', kind: 'shared', users: [], isDefault: false } });
      return res.json().data.id;
    },
    async upload(name, content, locale, libraryId, extra = {}) {
      const boundary = `----${area.plugin}sheet`;
      const fields = { libraryId: String(libraryId), sourceLang: 'en', targetLang: 'es', ...extra };
      const parts: Buffer[] = [];
      for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
      const res = await kernel.app.inject({ method: 'POST', url: `${area.routes}/import`, headers: { jwt: token, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
      return { status: res.statusCode, body: res.json() };
    },
    async entries(libraryId) {
      // The table is the area's, not the kernel's schema: counted without its row type.
      const db = kernel.database.db as unknown as Kysely<Record<string, { library_id: number }>>;
      const row = await db.selectFrom(area.table).select((eb) => eb.fn.countAll().as('n')).where('library_id', '=', libraryId).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
