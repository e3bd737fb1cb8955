import type { FileFormat, FormatRegistry } from '@linguaport/sdk/shared';
import { extname } from 'node:path';

/**
 * The kernel's format registry: every file format the platform reads and writes, whoever provides it
 * (the kernel's own plain text, documents, memories, term bases). An id or an extension belongs to one
 * format: a second claim is refused where it is made, naming both owners.
 */
export function createFormatRegistry(): FormatRegistry & { registerFor(owner: string, format: FileFormat): void; ownerOf(id: string): string | null } {
  const formats = new Map<string, { format: FileFormat; owner: string }>();
  const byExtension = new Map<string, string>();

  const registerFor = (owner: string, format: FileFormat) => {
    if (!/^[a-z0-9][a-z0-9.-]*$/.test(format.id)) throw new Error(`format id ${JSON.stringify(format.id)} must be lower-case letters, digits, dots and dashes`);
    const taken = formats.get(format.id);
    if (taken) throw new Error(`format ${format.id} of ${owner} is already registered by ${taken.owner}`);
    for (const ext of format.extensions) {
      const holder = byExtension.get(ext.toLowerCase());
      if (holder) throw new Error(`extension .${ext} of format ${format.id} (${owner}) is already claimed by format ${holder}`);
    }
    formats.set(format.id, { format, owner });
    for (const ext of format.extensions) byExtension.set(ext.toLowerCase(), format.id);
  };

  return {
    registerFor,
    register: (format) => registerFor('core', format),
    ownerOf: (id) => formats.get(id)?.owner ?? null,
    byId: (id) => formats.get(id)?.format ?? null,
    forFile(fileName, bytes) {
      const ext = extname(fileName).slice(1).toLowerCase();
      const id = byExtension.get(ext);
      const format = id ? formats.get(id)!.format : null;
      if (!format) return null;
      // Bytes that are not what the extension says (a renamed file) are no format's.
      if (bytes && format.sniff && !format.sniff(bytes)) return null;
      return format;
    },
    list: () => [...formats.values()].map((f) => f.format),
  };
}
