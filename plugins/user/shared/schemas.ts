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

/** One row of `GET /user/getAllUserByPage`. */
export interface UserRow {
  id: number;
  username: string;
  realName: string | null;
  email: string | null;
  phone: string | null;
  employeeNo: string | null;
  status: 'checked' | 'unchecked';
  isUse: boolean;
  userType: number;
  priority: number;
  memo: string | null;
  expiresAt: string | null;
  createdAt: string;
  creatorName: string | null;
  lastLoginAt: string | null;
  departments: Array<{ id: number; name: string }>;
  roles: Array<{ id: number; name: string }>;
}

/** Columns of the import file, in order (the template's header row names them). */
export const IMPORT_COLUMNS = ['username', 'realName', 'email', 'phone', 'employeeNo', 'memo'] as const;
export const IMPORT_MAX_ROWS = 5000;

export interface ImportRowReport {
  /** The spreadsheet row number (the header is row 1). */
  row: number;
  username: string;
  outcome: 'imported' | 'rejected';
  reason?: string;
}

export interface ImportReport {
  imported: number;
  rejected: number;
  rows: ImportRowReport[];
}
