export * from './envelope.js';
export * from './enums.js';
export * from './option.js';
export * from './status.js';
export * from './user.js';
export * from './user-group.js';
export * from './redemption.js';
