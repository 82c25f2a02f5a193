export * from './stack.js';
export * from './ports.js';
export * from './first-load.js';
