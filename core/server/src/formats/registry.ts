import type { FileFormat, FormatRegistry } from '@linguaport/sdk/shared';
import { extname } from 'node:path';

/**
 * The kernel's format registry: every file format the platform reads and writes, whoever provides it
 * (the kernel's own plain text, documents, memories, term bases). An id or an extension belongs to one
 * format: a second claim is refused where it is made, naming both owners.
 */
export interface KernelFormatRegistry extends FormatRegistry {
  registerFor(owner: string, format: FileFormat): void;
  ownerOf(id: string): string | null;
  /** Removes what a stopped plugin registered. */
  dropOwner(owner: string): void;
  /** The registry as one plugin sees it: what it registers is its own. */
  forPlugin(pluginId: string): FormatRegistry;
}

export function createFormatRegistry(): KernelFormatRegistry {
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

  const byId = (id: string) => formats.get(id)?.format ?? null;
  const forFile = (fileName: string, bytes?: Uint8Array) => {
    const ext = extname(fileName).slice(1).toLowerCase();
    const id = byExtension.get(ext);
    const format = id ? formats.get(id)!.format : null;
    if (!format) return null;
    // Bytes that are not what the extension says (a renamed file) are no format's.
    if (bytes && format.sniff && !format.sniff(bytes)) return null;
    return format;
  };
  const list = () => [...formats.values()].map((f) => f.format);

  return {
    registerFor,
    register: (format) => registerFor('core', format),
    dropOwner(owner) {
      for (const [id, entry] of [...formats]) {
        if (entry.owner !== owner) continue;
        formats.delete(id);
        for (const [ext, holder] of [...byExtension]) if (holder === id) byExtension.delete(ext);
      }
    },
    forPlugin: (pluginId) => ({ register: (format) => registerFor(pluginId, format), byId, forFile, list }),
    ownerOf: (id) => formats.get(id)?.owner ?? null,
    byId,
    forFile,
    list,
  };
}
