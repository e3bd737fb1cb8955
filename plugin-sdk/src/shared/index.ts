export * from './envelope.js';
export * from './semver.js';
export * from './manifest.js';
export { SDK_VERSION } from './version.js';
export * from './locale.js';
export * from './checks.js';
export * from './validation-messages.js';
export * from './format.js';
export * from './mime.js';
