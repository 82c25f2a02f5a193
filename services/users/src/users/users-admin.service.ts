import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { USER_DELETED, USER_PROMOTED } from '@shop/contracts';
import { type AuthenticatedUser, newEvent, outboxPush } from '@shop/service-kit';
import { type Model, isValidObjectId } from 'mongoose';
import { UserEventsRelay } from './user-events.relay';
import type { Confirmation, UserSummary } from '@shop/contracts';
import { type StoredUser, toSummary } from './user-views';
import { USER_MODEL, type UserRecord } from './user.schema';

export const USER_NOT_FOUND_MESSAGE = 'User Not Found';
export const INVALID_USER_ID_MESSAGE = 'Invalid user id';
export const CANNOT_DELETE_SELF_MESSAGE = 'You cannot delete your own account';

const SUMMARY_FIELDS = '_id name email isAdmin sessionsValidFrom';

function checkId(id: string): void {
  if (!isValidObjectId(id) || !/^[0-9a-f]{24}$/i.test(id))
    throw new BadRequestException(INVALID_USER_ID_MESSAGE);
}

/** What admins do with accounts: list, delete, make admin. */
@Injectable()
export class UsersAdminService {
  constructor(
    @InjectModel(USER_MODEL) private readonly users: Model<UserRecord>,
    private readonly relay: UserEventsRelay,
  ) {}

  async list(): Promise<UserSummary[]> {
    const docs = await this.users
      .find({ deletedAt: null })
      .select(SUMMARY_FIELDS)
      .sort({ _id: 1 })
      .lean<StoredUser[]>();
    return docs.map(toSummary);
  }

  /**
   * Deletes an account and queues `user.deleted` in the same write, so every service learns it.
   * The record stays, anonymised and invisible, until the relay has published the event; its
   * address is freed at once for a new sign-up.
   */
  async delete(actor: AuthenticatedUser, id: string): Promise<Confirmation> {
    checkId(id);
    if (id === actor.id) throw new BadRequestException(CANNOT_DELETE_SELF_MESSAGE);
    const event = newEvent(USER_DELETED, { userId: id });
    const deleted = await this.users.findOneAndUpdate(
      { _id: id, deletedAt: null },
      {
        $set: {
          deletedAt: new Date(),
          name: 'deleted',
          email: `deleted-${id}@deleted.invalid`,
          passwordHash: '!',
          passwordReset: null,
          isAdmin: false,
        },
        ...outboxPush(event),
      },
    );
    if (!deleted) throw new NotFoundException(USER_NOT_FOUND_MESSAGE);
    this.relay.nudge();
    return { message: 'User deleted' };
  }

  /**
   * Makes an account an admin; doing it again changes nothing. The rights arrive with the user's
   * next token (docs/decisions/0005-identity.md); `user.promoted` tells whoever cares.
   */
  async markAdmin(id: string): Promise<UserSummary> {
    checkId(id);
    const event = newEvent(USER_PROMOTED, { userId: id });
    const promoted = await this.users
      .findOneAndUpdate(
        { _id: id, deletedAt: null, isAdmin: false },
        { $set: { isAdmin: true }, ...outboxPush(event) },
        { returnDocument: 'after' },
      )
      .select(SUMMARY_FIELDS)
      .lean<StoredUser>();
    if (promoted) {
      this.relay.nudge();
      return toSummary(promoted);
    }
    const already = await this.users
      .findOne({ _id: id, deletedAt: null })
      .select(SUMMARY_FIELDS)
      .lean<StoredUser>();
    if (!already) throw new NotFoundException(USER_NOT_FOUND_MESSAGE);
    return toSummary(already);
  }
}
