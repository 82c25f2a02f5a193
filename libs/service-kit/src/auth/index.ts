export * from './token-claims';
export * from './auth.config';
export * from './token-revocations';
export * from './token-verifier';
export * from './auth.guard';
export * from './auth.decorators';
export * from './auth.module';
