import { Injectable } from '@nestjs/common';

/**
 * The time as the rules about one-time codes and attempt windows see it; tests replace it to
 * jump past an expiry instead of waiting. Token times (`iat`, `exp`) use the real clock, as every
 * verifying service does.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
