import { randomInt } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { hashPassword } from '../access/passwords.js';
import type { KernelTables } from '../db/schema.js';

export const ADMIN_USERNAME = 'admin';
export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

function randomPassword(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * Creates the first administrator (`admin`, super role, default department) when missing. The
 * password is ADMIN_PASSWORD, or a random one printed once and kept in a 0600 file.
 */
export async function ensureAdmin(
  db: Kysely<KernelTables>,
  config: { dataDir: string; adminPassword: string | null },
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<{ created: boolean }> {
  const existing = await db.selectFrom('users').select('id').where('username', '=', ADMIN_USERNAME).executeTakeFirst();
  if (existing) return { created: false };
  const password = config.adminPassword ?? randomPassword();
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const department = await trx.selectFrom('departments').select('id').where('is_default', '=', true).orderBy('id').executeTakeFirstOrThrow();
    const role = await trx.selectFrom('roles').select('id').where('is_super', '=', true).orderBy('id').executeTakeFirstOrThrow();
    const user = await trx
      .insertInto('users')
      .values({ username: ADMIN_USERNAME, real_name: 'Administrator', password_hash: hash, user_type: 0, status: 'checked', enabled: true, password_changed_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('user_department_roles').values({ user_id: user.id, department_id: department.id, role_id: role.id }).execute();
  });
  if (!config.adminPassword) {
    const file = join(config.dataDir, INITIAL_PASSWORD_FILE);
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
    chmodSync(file, 0o600); // the mode option is filtered by umask and ignored for an existing file
    print(`Initial administrator: ${ADMIN_USERNAME} / ${password}`);
  }
  return { created: true };
}
