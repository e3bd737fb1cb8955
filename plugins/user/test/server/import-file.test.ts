// Database: none
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { importTemplate, readImportFile } from '../../server/import.js';

// The spreadsheet reader behind the user import (@e965/xlsx, the maintained SheetJS build): the
// spec imports XLS, so the legacy binary formats must read, and nothing but XLS is accepted.

function book(rows: unknown[][], bookType: XLSX.BookType): Buffer {
  const b = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(b, XLSX.utils.aoa_to_sheet(rows), 'users');
  return XLSX.write(b, { bookType, type: 'buffer' }) as Buffer;
}

const rows = [
  ['用户名 / User name *', '姓名 / Real name', '邮箱 / Email', '电话 / Phone', '工号 / Employee number', '备注 / Memo'],
  ['wang.wei', '王伟', 'wang@example.com', '13800138000', 'E7', ''],
  ['', '', '', '', '', ''],
  ['li', 'Li Na', '', '', '', 'memo'],
];

describe('user import file', () => {
  it('reads an XLS (BIFF8) file: the rows after the header, Chinese text intact, blank rows skipped, row numbers as in the sheet', () => {
    const parsed = readImportFile({ filename: 'users.XLS', data: book(rows, 'biff8') }, 'en-US');
    expect(parsed).toEqual([
      { row: 2, username: 'wang.wei', realName: '王伟', email: 'wang@example.com', phone: '13800138000', employeeNo: 'E7', memo: null },
      { row: 4, username: 'li', realName: 'Li Na', email: null, phone: null, employeeNo: null, memo: 'memo' },
    ]);
  });

  it('reads an older XLS (BIFF5, Excel 5/95)', () => {
    const parsed = readImportFile({ filename: 'old.xls', data: book([['user name'], ['olduser']], 'biff5') }, 'en-US');
    expect(parsed.map((r) => r.username)).toEqual(['olduser']);
  });

  it('refuses XLSX, CSV and a broken XLS in the caller\'s language', () => {
    expect(() => readImportFile({ filename: 'u.xls', data: book(rows, 'xlsx') }, 'en-US')).toThrow('Only XLS');
    expect(() => readImportFile({ filename: 'u.xls', data: Buffer.from('a,b\n1,2\n') }, 'zh-CN')).toThrow('只能导入 XLS 文件');
    const broken = Buffer.concat([book(rows, 'biff8').subarray(0, 600), Buffer.alloc(200, 0xff)]);
    expect(() => readImportFile({ filename: 'u.xls', data: broken }, 'en-US')).toThrow(/cannot be read|no user rows|no sheet/);
  });

  it('finds no user rows in the template', () => {
    expect(() => readImportFile({ filename: 'user-import-template.xls', data: importTemplate() }, 'en-US')).toThrow('no user rows');
  });
});
