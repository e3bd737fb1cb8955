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

export const departmentRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  headUserId: z.number().int().nullable(),
  headName: z.string().nullable(),
  creatorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  isDefault: z.boolean(),
  userCount: z.number().int(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type DepartmentRow = z.infer<typeof departmentRowSchema>;
