import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';

/** User types (users.user_type): who manages the account's password. */
export const UserType = { LOCAL: 0, DIRECTORY: 1, SSO: 2, GUEST: 3 } as const;

/** Stored as the password hash of accounts that cannot sign in with a local password. */
export const NO_LOCAL_PASSWORD = '!';

export async function defaultDepartmentId(db: Kysely<KernelTables>): Promise<number> {
  const row = await db.selectFrom('departments').select('id').where('is_default', '=', true).orderBy('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function defaultRoleId(db: Kysely<KernelTables>): Promise<number> {
  const row = await db.selectFrom('roles').select('id').where('is_default', '=', true).where('is_super', '=', false).orderBy('id').executeTakeFirstOrThrow();
  return row.id;
}

export class UsernameTaken extends Error {
  constructor(readonly username: string) {
    super(`the account name ${username} is already used by another account`);
  }
}

/**
 * The local account of an outside identity: found by (source, subject), else created with the
 * default department and the normal-user role. A local account already holding the username is
 * never taken over: the administrator must rename one of them.
 */
export async function provisionExternalUser(
  db: Kysely<KernelTables>,
  input: { source: string; subject: string; username: string; realName: string | null; email: string | null; userType: number },
): Promise<{ userId: number; created: boolean }> {
  const linked = await db
    .selectFrom('users')
    .select('id')
    .where('external_source', '=', input.source)
    .where('external_subject', '=', input.subject)
    .executeTakeFirst();
  if (linked) return { userId: linked.id, created: false };
  const clash = await db.selectFrom('users').select('id').where('username', '=', input.username).executeTakeFirst();
  if (clash) throw new UsernameTaken(input.username);
  const department = await defaultDepartmentId(db);
  const role = await defaultRoleId(db);
  const userId = await db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({
        username: input.username,
        real_name: input.realName ?? input.username,
        email: input.email,
        password_hash: NO_LOCAL_PASSWORD,
        user_type: input.userType,
        status: 'checked',
        enabled: true,
        external_source: input.source,
        external_subject: input.subject,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('user_department_roles').values({ user_id: user.id, department_id: department, role_id: role }).execute();
    return user.id as number;
  });
  return { userId, created: true };
}
