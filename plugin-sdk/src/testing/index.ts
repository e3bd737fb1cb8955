// `@linguaport/sdk/testing`: what a plugin's own tests use. Runner-neutral: checks throw an Error that
// says what differs.
// Waiting for a condition with a deadline, and tests that need a tool or PostgreSQL (skipped here, failed under CI).
export { until, type Truthy, type UntilOptions } from './until.js';
export { available, requirePostgres, requireTool, type ToolRequirement } from './requirements.js';
export { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from './formats.js';
// A whole kernel in-process with a database of its own, and what tests do with it.
export {
  ADMIN_PASSWORD,
  createUserWithRole,
  encryptFor,
  issueApiKey,
  seededContainerCount,
  startTestKernel,
  testConfig,
  useOnlyLibreEngine,
  type KernelConfig,
  type KernelOptions,
  type KernelServer,
  type RegisteredRoute,
  type TestKernel,
  type TestKernelOptions,
  type TestPlugin,
} from './kernel.js';
export { openTestDatabase, type TestDatabase } from './database.js';
// Engine peers on loopback that speak the real protocols, for engine adapters and fail-over.
export { startLibrePeer, type LibrePeer, type LibrePeerOptions } from './peers/libretranslate.js';
export { startOpenAiPeer, type OpenAiPeer, type OpenAiPeerOptions } from './peers/openai.js';
export { buildAptRepository, type AptPackage, type AptRepository } from './peers/apt.js';
export { startVectorPeer, cepstralEmbedding, type VectorPeer, type VectorPeerOptions } from './peers/paddlespeech-vector.js';
// Pictures with text drawn at test time (OCR engines, picture formats).
export { textPicture, type PictureLine, type TextPictureOptions } from './pictures.js';
// Reading interchange files back with Debian's translate-toolkit (TMX -> PO, pocount).
export { tmx2po, readXliffWithToolkit, type ToolkitReading, type ToolkitXliffUnit } from './translate-toolkit.js';
export { sheetXlsx } from './spreadsheets.js';
// Debian's LibreOffice making sample files (cached per machine) and reading ours back, many in one start.
export { madeByLibreOffice, openedByLibreOffice, textSeenByLibreOffice } from './libreoffice.js';
// A memory's or term base's import behind a kernel of its own (the spreadsheet-limit tests of both areas).
export { startResourceImportKernel, type ResourceArea, type ResourceImportKernel } from './resource-imports.js';
// Zip archives that unpack to hundreds of MB, made by streaming deflate (budget tests).
export { zipOfRepeats, docxOfRepeats, DOCX_FRAME, type RepeatedEntry } from './zip-bombs.js';
// PDFs of empty pages of any size in points, about a kilobyte (page rendering limits).
export { pdfOfPages } from './pdf-pages.js';
