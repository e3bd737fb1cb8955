import { idSchema, ValidationKeys, z } from '@linguaport/sdk/shared';

/** Department form rules, shared by the server (refuse) and the console (explain). */
export const departmentSchema = z.object({
  name: z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(128),
  /** Letters, digits, dash and underscore: the code is used in files and links. */
  code: z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(64).regex(/^[A-Za-z0-9_-]+$/, 'department:codeFormat'),
  description: z.string().max(500).nullish(),
  headUserId: z.union([z.literal(''), idSchema]).nullish(),
  roleIds: z.array(idSchema).default([]),
});
export const updateDepartmentSchema = departmentSchema.extend({ id: idSchema });

export interface DepartmentRow {
  id: number;
  name: string;
  code: string;
  description: string | null;
  headUserId: number | null;
  headName: string | null;
  creatorName: string | null;
  createdAt: string;
  isDefault: boolean;
  userCount: number;
  roles: Array<{ id: number; name: string }>;
}
