export * from './format.js';
export * from './tar.js';
export * from './verify.js';
