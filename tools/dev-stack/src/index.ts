export * from './stack.js';
export * from './ports.js';
export * from './load/load-generator.js';
export * from './load/load-settings.js';
export * from './alerts.js';
