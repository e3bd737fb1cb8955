import type { TestKernel } from '@linguaport/sdk/testing';

export interface UploadFile {
  /** The form field (`files` unless said). */
  field?: string;
  name: string;
  content: Buffer;
}

/** A multipart call as the console makes it: fields, then files; the status and the parsed envelope. */
export async function uploadTo(k: TestKernel, url: string, headers: Record<string, string>, fields: Record<string, string>, files: UploadFile[]) {
  const boundary = '----voiceprinttest';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(f.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}
