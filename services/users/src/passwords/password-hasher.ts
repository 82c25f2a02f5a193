import { Injectable } from '@nestjs/common';
import { argon2id, hash, verify } from 'argon2';

// OWASP's first argon2id choice (m=19 MiB, t=2, p=1) is the floor; this spends ~2x that per hash.
const OPTIONS = { type: argon2id, memoryCost: 19_456, timeCost: 3, parallelism: 1 } as const;

/** argon2id hashing of passwords and one-time codes. */
@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;

  hash(secret: string): Promise<string> {
    return hash(secret, OPTIONS);
  }

  /** False for a wrong secret and for a hash that is not argon2 at all. */
  async verify(stored: string, secret: string): Promise<boolean> {
    try {
      return await verify(stored, secret);
    } catch {
      return false;
    }
  }

  /**
   * Spends the time of one verification without a real hash, so an unknown account answers as
   * slowly as a wrong password and response times do not tell which addresses have accounts.
   */
  async verifyNothing(secret: string): Promise<false> {
    this.dummy ??= this.hash('not-a-real-password-hash');
    await this.verify(await this.dummy, secret);
    return false;
  }
}
