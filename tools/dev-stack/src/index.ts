export * from './stack.js';
export * from './ports.js';
