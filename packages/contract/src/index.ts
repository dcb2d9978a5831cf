export * from './envelope.js';
export * from './option.js';
