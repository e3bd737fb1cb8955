/**
 * A PDF of empty pages of the given sizes in points (`[width, height]`), with a small grey picture on
 * each (so a reader that OCRs pictured pages without text sends them to OCR). About a kilobyte,
 * whatever the sizes: for tests of what rendering a page may cost. A third element is a line of text
 * (Helvetica, ASCII) written on the page, which then has a text layer.
 */
export function pdfOfPages(sizes: Array<[number, number] | [number, number, string]>): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 2; // object numbers from 3 (1 catalog, 2 pages)
  const kids: number[] = [];
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (const [w, h, text] of sizes) {
    const image = add('<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x80\x80\x80\nendstream');
    const draw = `q 100 0 0 100 10 10 cm /Im0 Do Q${text ? ` BT /F1 12 Tf 20 ${h - 40} Td (${text.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET` : ''}`;
    const content = add(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${image} 0 R >> /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  const all = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`, ...objects];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  all.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
