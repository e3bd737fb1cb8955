import { idSchema, ValidationKeys, z } from '@linguaport/sdk/shared';

/** Role form rules, shared by the server (refuse) and the console (explain). */
export const roleSchema = z.object({
  name: z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(64),
  description: z.string().max(500).nullish(),
});
export const updateRoleSchema = roleSchema.extend({ id: idSchema });

export interface RoleRow {
  id: number;
  name: string;
  description: string | null;
  creatorName: string | null;
  createdAt: string;
  userCount: number;
  isSuper: boolean;
  isDefault: boolean;
}
