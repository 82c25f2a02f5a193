export * from './stack.js';
export * from './ports.js';
export * from './first-load.js';
export * from './contracts/fuzz.js';
export * from './contracts/nats-check.js';
