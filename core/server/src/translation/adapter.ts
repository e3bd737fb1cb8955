/**
 * The engine-facing contract lives in the SDK (`@linguaport/sdk/server`, engines.ts): plugins
 * bring adapters, the kernel routes to them. Re-exported here for the kernel's own modules.
 */
export {
  EngineError,
  errorForStatus,
  failsNode,
  isEngineError,
  keepOuterWhitespace,
  type EngineAdapter,
  type EngineErrorKind,
  type EngineHealth,
  type LanguagePair,
  type TermRequirement,
  type TranslateBatch,
} from '@linguaport/sdk/server';
