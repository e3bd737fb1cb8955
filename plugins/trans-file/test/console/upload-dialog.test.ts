import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The document upload dialog says, in both languages, that a PDF comes back as an editable Word document.
const locale = (lang: string) => JSON.parse(readFileSync(new URL(`../../locales/${lang}.json`, import.meta.url), 'utf8'));

describe('upload dialog: what a PDF becomes', () => {
  it('has the note in both languages and shows it when PDFs are accepted', () => {
    const find = (o: Record<string, unknown>): string | undefined => (typeof o.pdfResult === 'string' ? o.pdfResult : Object.values(o).filter((v) => v && typeof v === 'object').map((v) => find(v as Record<string, unknown>)).find(Boolean));
    const en = find(locale('en-US'));
    const zh = find(locale('zh-CN'));
    expect(en).toMatch(/PDF.*editable Word document.*\.docx/);
    expect(zh).toMatch(/PDF.*可编辑.*Word.*\.docx/);
    const dialog = readFileSync(new URL('../../console/UploadDialog.tsx', import.meta.url), 'utf8');
    expect(dialog).toMatch(/extensions\.includes\('pdf'\)\) && <div data-testid="pdf-result-note"[^>]*>\{t\('pdfResult'\)\}/);
  });
});
