import { createHash } from 'node:crypto';

/** Subresource-integrity value (`sha384-<base64>`) the console checks before evaluating a file. */
export function integrityOf(content) {
  return `sha384-${createHash('sha384').update(content).digest('base64')}`;
}

/** Short content hash for immutable file names: same bytes, same name. */
export function contentHash(content, length = 10) {
  return createHash('sha256').update(content).digest('hex').slice(0, length);
}
