// The entry main.ts loads first, before anything the SDK instruments: keep it free of Nest, Fastify and mongoose.
export * from './start-telemetry';
