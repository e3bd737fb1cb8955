import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/shared/manifest.js';

const base = { id: 'ocr-area', version: '1.0.0', name: { 'zh-CN': '识别', 'en-US': 'OCR' }, sdk: '^1.0.0', i18n: ['ocrArea'] };

describe('manifest tools', () => {
  it('takes a command with its Debian package and feature, runtime unless told', () => {
    const m = parseManifest({ ...base, tools: [{ command: 'tesseract', package: 'tesseract-ocr', feature: 'ocr', purpose: 'OCR of pictures' }, { package: 'tesseract-ocr-eng', feature: 'ocr', purpose: 'OCR of English', stage: 'test' }] });
    expect(m.tools).toEqual([
      { command: 'tesseract', package: 'tesseract-ocr', feature: 'ocr', purpose: 'OCR of pictures', stage: 'runtime' },
      { package: 'tesseract-ocr-eng', feature: 'ocr', purpose: 'OCR of English', stage: 'test' },
    ]);
    expect(parseManifest(base).tools).toEqual([]);
  });

  it.each([
    [{ feature: 'ocr', purpose: 'x' }, /a command, a package or both/],
    [{ command: 'tesseract; rm -rf /', package: 'tesseract-ocr', feature: 'ocr', purpose: 'x' }, /program name or an absolute path/],
    [{ command: 'tesseract', package: 'Tesseract OCR', feature: 'ocr', purpose: 'x' }, /Debian package name/],
    [{ command: 'tesseract', feature: 'OCR!', purpose: 'x' }, /tool features read like/],
    [{ command: 'tesseract', feature: 'ocr', purpose: 'x', stage: 'build' }, /tools\.0\.stage/],
    [{ probe: ['--version'], package: 'tesseract-ocr', feature: 'ocr', purpose: 'x' }, /a probe runs the command/],
    [{ command: 'tesseract', feature: 'ocr', purpose: 'x', sudo: true }, /tools\.0/],
  ])('refuses a tool %j', (tool, message) => {
    expect(() => parseManifest({ ...base, tools: [tool] })).toThrow(message);
  });

  it('refuses the same tool declared twice for a feature', () => {
    const tool = { command: 'ffmpeg', package: 'ffmpeg', feature: 'media', purpose: 'video' };
    expect(() => parseManifest({ ...base, tools: [tool, tool] })).toThrow(/tools\.1: tool ffmpeg is declared twice for media/);
  });
});

describe('manifest route crumb', () => {
  const routes = (crumb: unknown) => [
    { path: '/notes', view: 'Notes', title: 'ocrArea:notes', menu: {} },
    { path: '/noteHistory', view: 'NoteHistory', title: 'ocrArea:history', parent: '/notes', crumb },
  ];
  it("takes a detail route's crumb from a session storage key and field", () => {
    expect(parseManifest({ ...base, routes: routes({ session: 'noteBook', field: 'name' }) }).routes[1]!.crumb).toEqual({ session: 'noteBook', field: 'name' });
  });
  it('refuses a crumb on a menu route and a malformed key', () => {
    expect(() => parseManifest({ ...base, routes: [{ path: '/notes', view: 'Notes', title: 'x', menu: {}, crumb: { session: 'k' } }] })).toThrow(/only a detail route/);
    expect(() => parseManifest({ ...base, routes: routes({ session: 'a key' }) })).toThrow(/a session storage key/);
    expect(() => parseManifest({ ...base, routes: routes({ session: 'k', script: 'x' }) })).toThrow(/routes\.1\.crumb/);
  });
});
