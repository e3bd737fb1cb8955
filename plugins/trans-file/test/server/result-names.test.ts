// Database: none
import { describe, expect, it } from 'vitest';
import { pdfNameOf, resultName } from '../../server/result.js';

// Result names say where a result came from: two originals that differ only in their extension never
// give the same name (two uploads of one file: documents.test.ts of formats-pdf, through the queue).
describe('result names', () => {
  it('keeps the original extension when the result changes format', () => {
    expect(resultName('report.pdf', 'es', '.docx')).toBe('report_es.pdf.docx');
    expect(resultName('report.docx', 'es', '.docx')).toBe('report_es.docx');
    expect(resultName('report.pdf', 'es', '.docx')).not.toBe(resultName('report.docx', 'es', '.docx'));
    expect(resultName('report.pdf', 'es_table', '.docx')).not.toBe(resultName('report.docx', 'es_table', '.docx'));
    expect(resultName('notes.txt', 'es')).toBe('notes_es.txt');
    expect(resultName('SCAN.PDF', 'es', '.pdf')).toBe('SCAN_es.pdf');
  });

  it('names the PDF of a result without doubling .pdf', () => {
    expect(pdfNameOf('report_es.pdf.docx')).toBe('report_es.pdf');
    expect(pdfNameOf('report_es (2).pdf.docx')).toBe('report_es (2).pdf');
    expect(pdfNameOf('letter_es.docx')).toBe('letter_es.pdf');
    expect(pdfNameOf('report.pdf')).toBe('report.pdf');
  });
});
