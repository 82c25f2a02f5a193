import { BadRequestException, ConflictException, Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { USER_PASSWORD_RESET, type UserPasswordResetEvent } from '@shop/contracts';
import {
  type AuthenticatedUser,
  OutboxRelayProvider,
  REVOKED_TOKEN_MESSAGE,
  TooManyRequestsException,
  isDuplicateKey,
  newEvent,
  shopCounter,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { PasswordHasher } from '../passwords/password-hasher';
import { AttemptThrottleService } from '../throttling/attempt-throttle.service';
import { TokenIssuer } from '../tokens/token-issuer';
import type { UserInfo } from '@shop/contracts';
import { type StoredUser, sessionsValidFromNow, toSummary } from '../users/user-views';
import { USER_MODEL, type UserRecord } from '../users/user.schema';
import type { SignInDto } from './dto/sign-in.dto';
import type { SignUpDto } from './dto/sign-up.dto';
import type { UpdateProfileDto } from './dto/update-profile.dto';

const SIGN_IN_FAILED_MESSAGE = 'Invalid email or password';
const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';
const CURRENT_PASSWORD_REQUIRED_MESSAGE = 'currentPassword is required to change the email or password';
const CURRENT_PASSWORD_WRONG_MESSAGE = 'Current password is incorrect';

/** Sign-up, sign-in and the signed-in user's own profile. */
@Injectable()
export class AccountsService {
  private readonly signInsRefused = shopCounter(
    'shop.signins.refused',
    'Sign-ins refused: invalid_credentials (unknown e-mail or wrong password) or throttled (429)',
  );

  constructor(
    @InjectModel(USER_MODEL) private readonly users: Model<UserRecord>,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenIssuer,
    private readonly throttle: AttemptThrottleService,
    private readonly relay: OutboxRelayProvider,
  ) {}

  async signUp(dto: SignUpDto, address: string): Promise<UserInfo> {
    await this.throttle.take('signup', { account: dto.email, address });
    const passwordHash = await this.hasher.hash(dto.password);
    try {
      // Only these fields: nothing a client sends can make an admin.
      const user = await this.users.create({
        name: dto.name,
        email: dto.email,
        passwordHash,
        isAdmin: false,
      });
      return this.userInfo(user.toObject());
    } catch (error) {
      if (isDuplicateKey(error)) throw new ConflictException(EMAIL_TAKEN_MESSAGE);
      throw error;
    }
  }

  async signIn(dto: SignInDto, address: string): Promise<UserInfo> {
    const ticket = await this.throttle
      .take('signin', { account: dto.email, address })
      .catch((error: unknown) => {
        if (error instanceof TooManyRequestsException) this.signInsRefused.add(1, { reason: 'throttled' });
        throw error;
      });
    const user = await this.users
      .findOne({ email: dto.email, deletedAt: null })
      .select('+passwordHash')
      .lean<StoredUser & { passwordHash: string }>();
    // An unknown address costs the same time as a wrong password and reads the same.
    const valid = user
      ? await this.hasher.verify(user.passwordHash, dto.password)
      : await this.hasher.verifyNothing(dto.password);
    if (!user || !valid) {
      this.signInsRefused.add(1, { reason: 'invalid_credentials' });
      throw new UnauthorizedException(SIGN_IN_FAILED_MESSAGE);
    }
    await this.throttle.release(ticket);
    return this.userInfo(user);
  }

  /**
   * Changes the caller's name, e-mail or password. The e-mail and the password need the current
   * password; a new password ends every other session (`user.password-reset`), and the answer
   * carries a fresh token so this one goes on.
   */
  async updateProfile(caller: AuthenticatedUser, dto: UpdateProfileDto, address: string): Promise<UserInfo> {
    const user = await this.users
      .findOne({ _id: caller.id, deletedAt: null })
      .select('+passwordHash')
      .lean<StoredUser & { passwordHash: string }>();
    // The token may be good while the account is gone or its sessions ended; this service knows now.
    if (!user || caller.issuedAt.getTime() / 1_000 < user.sessionsValidFrom) {
      throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
    }

    const changesEmail = dto.email !== undefined && dto.email !== user.email;
    const changesPassword = dto.password !== undefined && dto.password !== '';
    const $set: Partial<UserRecord> = {};
    if (dto.name !== undefined) $set.name = dto.name;
    let event: UserPasswordResetEvent | undefined;

    if (changesEmail || changesPassword) {
      if (!dto.currentPassword) throw new BadRequestException(CURRENT_PASSWORD_REQUIRED_MESSAGE);
      // Guessing the current password with a stolen token is guessing a sign-in: same counters.
      const ticket = await this.throttle.take('signin', { account: user.email, address });
      if (!(await this.hasher.verify(user.passwordHash, dto.currentPassword))) {
        throw new BadRequestException(CURRENT_PASSWORD_WRONG_MESSAGE);
      }
      await this.throttle.release(ticket);
      if (changesEmail) $set.email = dto.email;
      if (changesPassword) {
        $set.passwordHash = await this.hasher.hash(dto.password!);
        $set.sessionsValidFrom = sessionsValidFromNow();
        event = newEvent(USER_PASSWORD_RESET, {
          userId: String(user._id),
          sessionsValidFrom: $set.sessionsValidFrom,
          via: 'profile' as const,
        });
      }
    }

    let updated: StoredUser | null;
    try {
      updated = await this.relay.updateWithEvent<UserRecord, StoredUser>(
        this.users,
        { _id: user._id, deletedAt: null },
        { $set },
        event,
        { returnDocument: 'after' },
      );
    } catch (error) {
      if (isDuplicateKey(error)) throw new ConflictException(EMAIL_TAKEN_MESSAGE);
      throw error;
    }
    if (!updated) throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
    return this.userInfo(updated);
  }

  private async userInfo(user: StoredUser): Promise<UserInfo> {
    const token = await this.tokens.issue({
      id: String(user._id),
      isAdmin: user.isAdmin,
      sessionsValidFrom: user.sessionsValidFrom ?? 0,
    });
    return { ...toSummary(user), token };
  }
}
