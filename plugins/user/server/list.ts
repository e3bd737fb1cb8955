import { pageOf, pageOffset, pageQuery, type UserAdmin } from '@linguaport/sdk/server';
import { idSchema, seededName, z, type Locale } from '@linguaport/sdk/shared';
import type { UserRow } from '../shared/schemas.js';

/** `GET /user/getAllUserByPage` query: paging, filters, one sort column. */
export const listQuerySchema = z.object({
  ...pageQuery,
  username: z.string().trim().max(255).optional(),
  realName: z.string().trim().max(255).optional(),
  departmentId: idSchema.optional(),
  roleId: idSchema.optional(),
  status: z.enum(['checked', 'unchecked']).optional(),
  isUse: z.enum(['0', '1', 'true', 'false']).optional(),
  sortBy: z.enum(['username', 'realName', 'createdAt', 'priority', 'expiresAt', 'lastLoginAt']).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/**
 * One page of users, as the list shows them: built-in role and department names in the reader's
 * language. The kernel reads the page (ctx.organisation.users; its indexes serve every sort and search).
 */
export async function listUsers(users: UserAdmin, q: ListQuery, locale: Locale = 'zh-CN'): Promise<{ records: UserRow[]; total: number; pageNum: number; pageSize: number }> {
  const { total, users: page } = await users.page({
    username: q.username || undefined,
    realName: q.realName || undefined,
    departmentId: q.departmentId,
    roleId: q.roleId,
    status: q.status,
    enabled: q.isUse === undefined ? undefined : q.isUse === '1' || q.isUse === 'true',
    sortBy: q.sortBy,
    sortOrder: q.sortOrder,
    offset: pageOffset(q),
    limit: q.pageSize,
  });
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const records: UserRow[] = page.map((u) => ({
    id: u.id,
    username: u.username,
    realName: seededName(u.realName, locale),
    email: u.email,
    phone: u.phone,
    employeeNo: u.employeeNo,
    status: u.status,
    isUse: u.enabled,
    userType: u.userType,
    priority: u.priority,
    memo: u.memo,
    expiresAt: iso(u.expiresAt),
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: iso(u.lastLoginAt),
    creatorName: u.creatorName,
    departments: u.departments.map((d) => ({ id: d.id, name: seededName(d.name, locale) })),
    roles: u.roles.map((r) => ({ id: r.id, name: seededName(r.name, locale) })),
  }));
  return pageOf(q, records, total);
}
