export * from './fuzz.js';
export * from './nats-check.js';
