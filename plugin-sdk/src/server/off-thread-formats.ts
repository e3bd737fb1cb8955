import type { FileFormat, ParsedFile, TranslationUnit, WriteOptions } from '../shared/file-format.js';
import { DOCUMENT_BUDGETS, type DocumentBudgets } from './budgets.js';
import { defineWorkerTask, WorkerRunError } from './worker-tasks.js';

/**
 * Formats that parse text in this process (XML, HTML, PO, JSON…) read large files in a worker
 * process instead, with the document budgets' heap and deadline: a file of megabytes of markup
 * neither holds the server's event loop nor, made to exhaust memory, kills it. Small files stay in
 * process (a worker's first start costs about a second).
 *
 * Call it at the top level of the module that `module` names (usually the plugin's entry, with its
 * `import.meta.url`), so that the worker, which loads that module, knows the same formats:
 *
 *   const formats = formatsOffThread('formats-text', [xliffFormat, htmlFormat], { module: import.meta.url });
 *
 * A large file's skeleton is its bytes: writing parses them again in the worker and writes there.
 */

/** Files up to this size are read in the server's own process. */
export const OFF_THREAD_BYTES = 1024 * 1024;

interface Skeleton {
  offThread: true;
  bytes: Uint8Array;
  options?: { fileName?: string; sourceLanguage?: string };
}

const isOffThread = (s: unknown): s is Skeleton => typeof s === 'object' && s !== null && (s as Skeleton).offThread === true;

export function formatsOffThread(prefix: string, formats: readonly FileFormat[], options: { module: string; budgets?: DocumentBudgets; thresholdBytes?: number }): FileFormat[] {
  const byId = new Map(formats.map((f) => [f.id, f]));
  const formatOf = (id: string) => {
    const f = byId.get(id);
    if (!f) throw new Error(`no format ${id} in ${prefix}`);
    return f;
  };
  const parseTask = defineWorkerTask(`${prefix}.parse`, async (job: { id: string; bytes: Uint8Array; options?: Skeleton['options'] }) => {
    const parsed = await formatOf(job.id).parse(job.bytes, job.options);
    return { units: parsed.units, sourceLanguage: parsed.sourceLanguage, targetLanguage: parsed.targetLanguage };
  });
  const writeTask = defineWorkerTask(`${prefix}.write`, async (job: { id: string; skeleton: Skeleton; units: TranslationUnit[]; options?: WriteOptions }) => {
    const format = formatOf(job.id);
    return format.write(await format.parse(job.skeleton.bytes, job.skeleton.options), job.units, job.options);
  });
  const validateTask = defineWorkerTask(`${prefix}.validate`, async (job: { id: string; bytes: Uint8Array }) => {
    await formatOf(job.id).validate?.(job.bytes);
    return null;
  });

  const budgets = options.budgets ?? DOCUMENT_BUDGETS;
  const threshold = options.thresholdBytes ?? OFF_THREAD_BYTES;
  const run = { module: options.module, maxHeapMb: budgets.maxHeapMb, timeoutMs: budgets.timeoutMs };
  const inWorker = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof WorkerRunError)) throw err;
      // The worker's own failure, said as the format's: the heap or the deadline of reading this file.
      const s = Math.round(budgets.timeoutMs / 1000);
      const localized =
        err.reason === 'heap'
          ? { 'zh-CN': `读取该文件需要超过 ${budgets.maxHeapMb} MB 内存，超出处理上限`, 'en-US': `reading the file needs more than ${budgets.maxHeapMb} MB of memory, over the processing limit` }
          : err.reason === 'timeout'
            ? { 'zh-CN': `读取该文件超过 ${s} 秒，超出处理上限`, 'en-US': `reading the file took more than ${s} s, over the processing limit` }
            : { 'zh-CN': `无法读取该文件（${name}）：${err.message}`, 'en-US': `the file could not be read (${name}): ${err.message}` };
      throw Object.assign(new Error(localized['en-US']), { name: 'FormatBudgetError', localized });
    }
  };

  return formats.map((format) => ({
    ...format,
    ...(format.validate
      ? {
          validate: (bytes: Uint8Array) =>
            bytes.byteLength > threshold ? inWorker(format.name, () => validateTask.run({ id: format.id, bytes }, run).then(() => undefined)) : format.validate!(bytes),
        }
      : {}),
    async parse(bytes: Uint8Array, parseOptions?: Skeleton['options']): Promise<ParsedFile> {
      if (bytes.byteLength <= threshold) return format.parse(bytes, parseOptions);
      const read = await inWorker(format.name, () => parseTask.run({ id: format.id, bytes, options: parseOptions }, run));
      const skeleton: Skeleton = { offThread: true, bytes, options: parseOptions };
      return { format: format.id, units: read.units, skeleton, ...(read.sourceLanguage ? { sourceLanguage: read.sourceLanguage } : {}), ...(read.targetLanguage ? { targetLanguage: read.targetLanguage } : {}) };
    },
    async write(file: ParsedFile, units: TranslationUnit[], writeOptions?: WriteOptions): Promise<Uint8Array> {
      if (!isOffThread(file.skeleton)) return format.write(file, units, writeOptions);
      const skeleton = file.skeleton;
      const bytes = await inWorker(format.name, () => writeTask.run({ id: format.id, skeleton, units, options: writeOptions }, run));
      return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes as ArrayLike<number>);
    },
  }));
}
