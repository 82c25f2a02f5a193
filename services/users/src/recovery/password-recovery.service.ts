import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  PASSWORD_RECOVERY_MESSAGES,
  USER_PASSWORD_RESET,
  type UserPasswordResetEvent,
} from '@shop/contracts';
import { OutboxRelayProvider, SERVICE_CONTEXT, type ServiceContext, newEvent } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { Clock } from '../clock/clock';
import { Mailer } from '../mail/mailer';
import { PasswordHasher } from '../passwords/password-hasher';
import { AttemptThrottleService } from '../throttling/attempt-throttle.service';
import type { Confirmation } from '@shop/contracts';
import { sessionsValidFromNow } from '../users/user-views';
import { type PasswordResetRecord, USER_MODEL, type UserRecord } from '../users/user.schema';
import type { ForgotPasswordDto } from './dto/forgot-password.dto';
import type { ResetPasswordDto } from './dto/reset-password.dto';
import { RESET_CODE_MAX_ATTEMPTS, RESET_CODE_TTL_MS, newResetCode } from './reset-code';

/** Forgot / reset password with a 6-digit one-time code sent by e-mail. */
@Injectable()
export class PasswordRecoveryService {
  constructor(
    @InjectModel(USER_MODEL) private readonly users: Model<UserRecord>,
    private readonly hasher: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly throttle: AttemptThrottleService,
    private readonly relay: OutboxRelayProvider,
    private readonly clock: Clock,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  /**
   * Sends a new code to the address if it has an account, replacing any earlier code. The answer,
   * and the work done before it, are the same whether the account exists or not; the e-mail
   * leaves after the answer.
   */
  async forgot(dto: ForgotPasswordDto, address: string): Promise<Confirmation> {
    await this.throttle.take('forgot', { account: dto.email, address });
    const code = newResetCode();
    const passwordReset: PasswordResetRecord = {
      codeHash: await this.hasher.hash(code),
      expiresAt: new Date(this.clock.now().getTime() + RESET_CODE_TTL_MS),
      attempts: 0,
    };
    const user = await this.users
      .findOneAndUpdate({ email: dto.email, deletedAt: null }, { $set: { passwordReset } })
      .select('name email')
      .lean<Pick<UserRecord, 'name' | 'email'>>();
    if (user) {
      void this.mailer
        .send({
          to: user.email,
          subject: 'Your password reset code',
          text: [
            `Hello ${user.name},`,
            '',
            `Your password reset code is ${code}`,
            '',
            // Lines under 76 characters stay readable in the .eml (no quoted-printable breaks).
            'It works once, for 10 minutes.',
            'If you did not ask for it, ignore this e-mail: your password stays.',
          ].join('\n'),
        })
        .catch((error: unknown) => this.context.logger.error({ err: error }, 'sending a reset code failed'));
    }
    return { message: PASSWORD_RECOVERY_MESSAGES.codeSent };
  }

  /**
   * Sets a new password with a code. Each try is counted before the code is compared, in one
   * atomic update, so parallel guesses cannot go past the limit; the code is cleared in the same
   * write that sets the password (conditional on that very code), so it works once.
   */
  async reset(dto: ResetPasswordDto, address: string): Promise<Confirmation> {
    await this.throttle.take('reset', { account: dto.email, address });
    const user = await this.users
      .findOneAndUpdate(
        {
          email: dto.email,
          deletedAt: null,
          'passwordReset.expiresAt': { $gt: this.clock.now() },
          'passwordReset.attempts': { $lt: RESET_CODE_MAX_ATTEMPTS },
        },
        { $inc: { 'passwordReset.attempts': 1 } },
        { returnDocument: 'after' },
      )
      .select('+passwordReset')
      .lean<{ _id: unknown; passwordReset: PasswordResetRecord }>();
    const valid = user
      ? await this.hasher.verify(user.passwordReset.codeHash, dto.otp)
      : await this.hasher.verifyNothing(dto.otp);
    if (!user || !valid) throw new BadRequestException(PASSWORD_RECOVERY_MESSAGES.invalidCode);

    const userId = String(user._id);
    const sessionsValidFrom = sessionsValidFromNow();
    const event: UserPasswordResetEvent = newEvent(USER_PASSWORD_RESET, {
      userId,
      sessionsValidFrom,
      via: 'reset',
    });
    const done = await this.relay.updateWithEvent(
      this.users,
      { _id: user._id, deletedAt: null, 'passwordReset.codeHash': user.passwordReset.codeHash },
      {
        $set: {
          passwordHash: await this.hasher.hash(dto.newPassword),
          sessionsValidFrom,
          passwordReset: null,
        },
      },
      event,
      { projection: '_id' },
    );
    if (!done) throw new BadRequestException(PASSWORD_RECOVERY_MESSAGES.invalidCode);
    return { message: PASSWORD_RECOVERY_MESSAGES.passwordReset };
  }
}
