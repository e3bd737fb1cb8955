// Database: none
import type { FileFormat } from '@linguaport/sdk/shared';
import type { ServerPluginContext } from '@linguaport/sdk/server';
import { describe, expect, it } from 'vitest';
import plugin from '../../server/index.js';

describe('text formats plugin', () => {
  it('registers the seven formats, each with its own id and extensions', async () => {
    const registered: FileFormat[] = [];
    await plugin.setup({ formats: { register: (f: FileFormat) => registered.push(f) } } as unknown as ServerPluginContext);
    expect(registered.map((f) => f.id)).toEqual(['srt', 'vtt', 'po', 'json', 'md', 'html', 'xliff']);
    const extensions = registered.flatMap((f) => f.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    expect(extensions.every((e) => e === e.toLowerCase() && !e.startsWith('.'))).toBe(true);
  });

  it('each format refuses the bytes of a renamed binary and of the other formats where they have a signature', async () => {
    const registered: FileFormat[] = [];
    await plugin.setup({ formats: { register: (f: FileFormat) => registered.push(f) } } as unknown as ServerPluginContext);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    for (const f of registered) expect(f.sniff!(png), f.id).toBe(false);
    const webvtt = new Uint8Array(Buffer.from('WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n'));
    expect(registered.filter((f) => f.sniff!(webvtt)).map((f) => f.id)).toEqual(['vtt', 'md']);
  });
});
