import type { z } from 'zod';
import { ApiError, Codes, type Caller, type UserDirectory } from './index.js';
import { describeIssues } from '../shared/validation-messages.js';
import type { ServiceCaller } from './services.js';

/**
 * What the library services' providers (memories, term bases) share: the call's caller made whole from
 * the kernel's user directory, and input checked against the SDK's contract schema (a 400 in both
 * languages, as a route would answer).
 */

/** The caller a service call acts for: super administrator and department read from the directory; a department the user is not in is not taken. */
export async function serviceCallerOf(users: UserDirectory, c: ServiceCaller): Promise<Caller> {
  const member = await users.membership(c.userId);
  if (!member) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': `用户 ${c.userId} 不存在`, 'en-US': `User ${c.userId} does not exist` });
  const chosen = c.departmentId != null && member.departmentIds.includes(c.departmentId) ? c.departmentId : (member.departmentIds[0] ?? null);
  return { userId: c.userId, username: '', departmentId: chosen, isSuperAdmin: member.isSuperAdmin, permissions: new Set(), via: 'session' };
}

/** The input parsed by the contract's schema, or ApiError 400 naming the fields in both languages. */
export function serviceInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': describeIssues(parsed.error.issues, 'zh-CN'), 'en-US': describeIssues(parsed.error.issues, 'en-US') });
}
