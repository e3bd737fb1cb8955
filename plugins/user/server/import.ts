import * as XLSX from '@e965/xlsx';
import { ApiError, Codes } from '@linguaport/sdk/server';
import { chinesePhoneSchema, emailSchema, userNameSchema, validationMessage } from '@linguaport/sdk/shared';
import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, type ImportRowReport } from '../shared/schemas.js';

/** Header texts of the template, in column order (both languages, so one template serves both). */
const HEADERS = ['用户名 / User name *', '姓名 / Real name', '邮箱 / Email', '电话 / Phone', '工号 / Employee number', '备注 / Memo'];

/** What the template's second sheet says (both languages); the import reads the first sheet only. */
const NOTES = [
  ['说明 / How to fill in'],
  ['在第一个工作表（users）中，从第 2 行起每行填写一个用户；第 1 行是表头，不要修改。只读取第一个工作表。'],
  ['One user per row on the first sheet (users), from row 2; row 1 is the header, leave it as it is. Only the first sheet is read.'],
  ['用户名必填且不能与已有用户重复；邮箱和电话若填写须有效。'],
  ['The user name is required and must not exist yet; an email or phone, if given, must be valid.'],
  ['导入的用户属于默认部门和默认角色，使用系统配置中的导入默认密码，首次登录时必须修改密码。'],
  ['Imported users join the default department with the default role, get the default password from the system configuration, and must change it at first sign-in.'],
  [`只接受 XLS 文件，每次最多 ${IMPORT_MAX_ROWS} 行。`],
  [`Only XLS files are accepted, at most ${IMPORT_MAX_ROWS} rows per import.`],
];

/**
 * The downloadable template: a real XLS (BIFF8) whose first sheet holds the header row only and a
 * second sheet the explanation. No sample row: a template imported unchanged must create no account.
 */
export function importTemplate(): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([HEADERS]), 'users');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(NOTES), 'notes');
  return XLSX.write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
}

export interface ParsedRow {
  row: number;
  username: string;
  realName: string | null;
  email: string | null;
  phone: string | null;
  employeeNo: string | null;
  memo: string | null;
}

// An XLS file is an OLE2 compound document; XLSX (zip) and CSV are refused (spec: XLS only).
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Reads the first sheet's rows after the header; refuses anything but a readable XLS. */
export function readImportFile(file: { filename: string; data: Buffer }, locale: string): ParsedRow[] {
  const zh = locale === 'zh-CN';
  if (!file.filename.toLowerCase().endsWith('.xls') || !file.data.subarray(0, 8).equals(OLE2)) {
    throw new ApiError(Codes.BAD_REQUEST, zh ? '只能导入 XLS 文件' : 'Only XLS files can be imported');
  }
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(file.data, { type: 'buffer', cellDates: false });
  } catch {
    throw new ApiError(Codes.BAD_REQUEST, zh ? '无法读取该 XLS 文件' : 'The XLS file cannot be read');
  }
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) throw new ApiError(Codes.BAD_REQUEST, zh ? '文件中没有工作表' : 'The file has no sheet');
  const grid = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, blankrows: true, defval: '' });
  const rows: ParsedRow[] = [];
  grid.slice(1).forEach((cells, i) => {
    const text = (k: number) => String(cells[k] ?? '').trim();
    if (IMPORT_COLUMNS.every((_, k) => text(k) === '')) return;
    rows.push({ row: i + 2, username: text(0), realName: text(1) || null, email: text(2) || null, phone: text(3) || null, employeeNo: text(4) || null, memo: text(5) || null });
  });
  if (rows.length === 0) throw new ApiError(Codes.BAD_REQUEST, zh ? '文件中没有用户行' : 'The file has no user rows');
  if (rows.length > IMPORT_MAX_ROWS) throw new ApiError(Codes.BAD_REQUEST, zh ? `一次最多导入 ${IMPORT_MAX_ROWS} 行` : `At most ${IMPORT_MAX_ROWS} rows per import`);
  return rows;
}

/** Row checks: the same rules as the add form; duplicates in the file or in the database are rejected. */
export function checkRows(rows: ParsedRow[], existing: ReadonlySet<string>, locale: string): Map<number, string> {
  const zh = locale === 'zh-CN';
  const seen = new Set<string>();
  const refusals = new Map<number, string>();
  for (const r of rows) {
    const reasons: string[] = [];
    const name = userNameSchema.safeParse(r.username);
    if (!name.success) reasons.push(`${zh ? '用户名' : 'user name'}: ${validationMessage(name.error.issues[0]!.message, locale)}`);
    else if (existing.has(name.data.toLowerCase())) reasons.push(zh ? '用户名已存在' : 'the user name already exists');
    else if (seen.has(name.data.toLowerCase())) reasons.push(zh ? '用户名在文件中重复' : 'the user name appears twice in the file');
    if (name.success) seen.add(name.data.toLowerCase());
    if (r.email && !emailSchema.safeParse(r.email).success) reasons.push(`${zh ? '邮箱' : 'email'}: ${validationMessage('validation.email', locale)}`);
    if (r.phone && !chinesePhoneSchema.safeParse(r.phone).success) reasons.push(`${zh ? '电话' : 'phone'}: ${validationMessage('validation.phone', locale)}`);
    if (reasons.length) refusals.set(r.row, reasons.join('; '));
  }
  return refusals;
}

export function reportRows(rows: ParsedRow[], refusals: Map<number, string>): ImportRowReport[] {
  return rows.map((r) => {
    const reason = refusals.get(r.row);
    return reason ? { row: r.row, username: r.username, outcome: 'rejected', reason } : { row: r.row, username: r.username, outcome: 'imported' };
  });
}
