import {
  ValidationKeys,
  chinesePhoneSchema,
  emailSchema,
  idSchema,
  passwordPairShape,
  userNameSchema,
  z,
} from '@linguaport/sdk/shared';

/**
 * The user forms' rules, used by the server to refuse and by the console to explain (spec 02
 * section 5, Users). Optional text fields accept '' (an empty form field) as "not given".
 */

/** File-translation priority levels: 0 is the lowest (imported users get it), 9 the highest. */
export const PRIORITY_MIN = 0;
export const PRIORITY_MAX = 9;

const blankable = <T extends z.ZodType>(schema: T) => z.union([z.literal(''), schema]).nullish();
const ids = z.array(idSchema, { error: ValidationKeys.required }).min(1, ValidationKeys.required);
const priority = z.coerce.number({ error: ValidationKeys.required }).int(ValidationKeys.nonNegativeInteger).min(PRIORITY_MIN, ValidationKeys.nonNegativeInteger).max(PRIORITY_MAX, 'user:priorityRange');

const profileShape = {
  username: userNameSchema,
  realName: z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(255),
  email: blankable(emailSchema),
  phone: blankable(chinesePhoneSchema),
  employeeNo: z.string().trim().max(64).nullish(),
  departmentIds: ids,
  roleIds: ids,
  /** ISO date-time or '' for "never expires". */
  expiresAt: z.union([z.literal(''), z.iso.datetime({ offset: true, local: true }), z.iso.date()]).nullish(),
  priority: priority.optional(),
  memo: z.string().max(1000).nullish(),
};

export const addUserSchema = z
  .object({ ...profileShape, ...passwordPairShape })
  .refine((v) => v.password === v.confirmPassword, { message: ValidationKeys.passwordMismatch, path: ['confirmPassword'] });

const editShape = { ...profileShape, password: z.string().nullish(), confirmPassword: z.string().nullish() };
const newPasswordConfirmed = (v: { password?: string | null; confirmPassword?: string | null }) => !v.password || v.password === v.confirmPassword;

/** Edit: the password pair is optional; when a new password is given it must be confirmed. */
export const updateUserSchema = z
  .object({ id: idSchema, ...editShape })
  .refine(newPasswordConfirmed, { message: ValidationKeys.passwordMismatch, path: ['confirmPassword'] });

/** The edit form's fields (the id is not a field). */
export const editUserFormSchema = z.object(editShape).refine(newPasswordConfirmed, { message: ValidationKeys.passwordMismatch, path: ['confirmPassword'] });

export const priorityByUsersSchema = z.object({ userIds: ids, priority });
export const priorityByDepartmentsSchema = z.object({ departmentIds: ids, priority });

export type AddUser = z.infer<typeof addUserSchema>;
export type UpdateUser = z.infer<typeof updateUserSchema>;

const named = z.object({ id: z.number().int(), name: z.string() });

/** One row of `GET /user/getAllUserByPage`. */
export const userRowSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  realName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  employeeNo: z.string().nullable(),
  status: z.enum(['checked', 'unchecked']),
  isUse: z.boolean(),
  userType: z.number().int(),
  priority: z.number().int(),
  memo: z.string().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  creatorName: z.string().nullable(),
  lastLoginAt: z.iso.datetime().nullable(),
  departments: z.array(named),
  roles: z.array(named),
});
export type UserRow = z.infer<typeof userRowSchema>;

/** Columns of the import file, in order (the template's header row names them). */
export const IMPORT_COLUMNS = ['username', 'realName', 'email', 'phone', 'employeeNo', 'memo'] as const;
export const IMPORT_MAX_ROWS = 5000;

export const importReportSchema = z.object({
  imported: z.number().int(),
  rejected: z.number().int(),
  rows: z.array(
    z.object({
      /** The spreadsheet row number (the header is row 1). */
      row: z.number().int(),
      username: z.string(),
      outcome: z.enum(['imported', 'rejected']),
      reason: z.string().optional(),
    }),
  ),
});
export type ImportReport = z.infer<typeof importReportSchema>;
export type ImportRowReport = ImportReport['rows'][number];
