// Kept in an ES module on purpose: from a CommonJS-mode file TypeScript cannot augment the
// ESM-only 'vitest' typings (TS2664), while the augmentation made here applies everywhere.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the run's MongoDB-wire server; add a database with `mongoUrlFor`. */
    mongoUrl: string;
    /** URL of the run's NATS server (JetStream enabled). */
    natsUrl: string;
  }
}

export {};
