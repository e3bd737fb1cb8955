export * from './envelope.js';
export * from './semver.js';
export * from './manifest.js';
export { SDK_VERSION } from './version.js';
