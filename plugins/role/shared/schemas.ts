import { idSchema, ValidationKeys, z } from '@linguaport/sdk/shared';

/** Role form rules, shared by the server (refuse) and the console (explain). */
export const roleSchema = z.object({
  name: z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(64),
  description: z.string().max(500).nullish(),
});
export const updateRoleSchema = roleSchema.extend({ id: idSchema });

export const roleRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  creatorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  userCount: z.number().int(),
  isSuper: z.boolean(),
  isDefault: z.boolean(),
  /** Seeded with the platform (super administrator, normal user, translator, reviewer, project manager): not deletable. */
  builtIn: z.boolean(),
});
export type RoleRow = z.infer<typeof roleRowSchema>;
