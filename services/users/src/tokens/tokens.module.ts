import { type DynamicModule, Module } from '@nestjs/common';
import { SIGNING_KEYS, type SigningKeys } from './signing-keys';
import { TokenIssuer } from './token-issuer';

/** Issues the bearer tokens every service verifies, signed with the service's keys. */
@Module({})
export class TokensModule {
  /** `keys` are loaded before the app is built, so a bad key stops the service at once. */
  static register(keys: SigningKeys): DynamicModule {
    return {
      module: TokensModule,
      providers: [{ provide: SIGNING_KEYS, useValue: keys }, TokenIssuer],
      exports: [TokenIssuer],
    };
  }
}
