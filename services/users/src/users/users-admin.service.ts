import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  USER_DELETED,
  USER_LIST_LIMITS,
  USER_PROMOTED,
  type UserDeletedEvent,
  type UserPromotedEvent,
} from '@shop/contracts';
import {
  type AuthenticatedUser,
  OutboxRelayProvider,
  type Page,
  adminActionEvent,
  escapeRegex,
  findPage,
  newEvent,
  pageWindow,
} from '@shop/service-kit';
import { type Model, type QueryFilter, isValidObjectId } from 'mongoose';
import type { ListUsersQuery } from './dto/list-users.query';
import type { Confirmation, UserSummary } from '@shop/contracts';
import { type StoredUser, toSummary } from './user-views';
import { USER_MODEL, type UserRecord } from './user.schema';

const USER_NOT_FOUND_MESSAGE = 'User Not Found';
const INVALID_USER_ID_MESSAGE = 'Invalid user id';
const CANNOT_DELETE_SELF_MESSAGE = 'You cannot delete your own account';

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
    private readonly relay: OutboxRelayProvider,
  ) {}

  /**
   * Live accounts, oldest first, filtered by text (name or e-mail) and role; one page when `page` or
   * `limit` is given, else all of them (what the list answered before it had parameters).
   */
  async list(query: ListUsersQuery = {}): Promise<Page<UserSummary>> {
    const filter: QueryFilter<UserRecord> = { deletedAt: null };
    if (query.isAdmin !== undefined) filter.isAdmin = query.isAdmin;
    if (query.q) {
      const text = new RegExp(escapeRegex(query.q), 'i');
      filter.$or = [{ name: text }, { email: text }];
    }
    const paged = query.page !== undefined || query.limit !== undefined;
    const { docs, total } = await findPage<UserRecord, StoredUser>(this.users, filter, {
      select: SUMMARY_FIELDS,
      sort: { _id: 1 },
      page: paged ? pageWindow(query.page, query.limit ?? USER_LIST_LIMITS.defaultLimit) : undefined,
    });
    return { total, items: docs.map(toSummary) };
  }

  /**
   * Deletes an account and queues `user.deleted` in the same write, so every service learns it.
   * The record stays, anonymised and invisible, until the relay has published the event; its
   * address is freed at once for a new sign-up.
   */
  async delete(actor: AuthenticatedUser, id: string): Promise<Confirmation> {
    checkId(id);
    if (id === actor.id) throw new BadRequestException(CANNOT_DELETE_SELF_MESSAGE);
    const current = await this.liveAccount<Pick<UserRecord, 'name' | 'email' | 'isAdmin'>>(
      id,
      'name email isAdmin',
    );
    const event: UserDeletedEvent = newEvent(USER_DELETED, { userId: id });
    const audit = adminActionEvent({
      actor,
      action: 'user.deleted',
      target: { type: 'user', id, label: current.email },
      before: { name: current.name, email: current.email, isAdmin: current.isAdmin },
      after: null,
    });
    const deleted = await this.relay.updateWithEvent(
      this.users,
      // The account as read: the audit trail's "before" is what was deleted.
      { _id: id, deletedAt: null, email: current.email, name: current.name, isAdmin: current.isAdmin },
      {
        $set: {
          deletedAt: new Date(),
          name: 'deleted',
          email: `deleted-${id}@deleted.invalid`,
          passwordHash: '!',
          passwordReset: null,
          isAdmin: false,
        },
      },
      [event, audit],
      { projection: '_id' },
    );
    if (!deleted) throw new NotFoundException(USER_NOT_FOUND_MESSAGE);
    return { message: 'User deleted' };
  }

  /**
   * Makes an account an admin; doing it again changes nothing. The rights arrive with the user's
   * next token (docs/decisions/0005-identity.md); `user.promoted` tells whoever cares.
   */
  async markAdmin(actor: AuthenticatedUser, id: string): Promise<UserSummary> {
    checkId(id);
    const account = await this.liveAccount<Pick<UserRecord, 'email'>>(id, 'email');
    const event: UserPromotedEvent = newEvent(USER_PROMOTED, { userId: id });
    const audit = adminActionEvent({
      actor,
      action: 'user.promoted',
      target: { type: 'user', id, label: account.email },
      before: { isAdmin: false },
      after: { isAdmin: true },
    });
    const promoted = await this.relay.updateWithEvent<UserRecord, StoredUser>(
      this.users,
      // An address changes only by a deletion, which also clears isAdmin: the label stays true.
      { _id: id, deletedAt: null, isAdmin: false },
      { $set: { isAdmin: true } },
      [event, audit],
      { returnDocument: 'after', projection: SUMMARY_FIELDS },
    );
    if (promoted) return toSummary(promoted);
    return toSummary(await this.liveAccount<StoredUser>(id, SUMMARY_FIELDS));
  }

  /** The live (not deleted) account `id`, with the fields `select` names; a 404 when there is none. */
  private async liveAccount<T>(id: string, select: string): Promise<T> {
    const account = await this.users.findOne({ _id: id, deletedAt: null }).select(select).lean<T>();
    if (!account) throw new NotFoundException(USER_NOT_FOUND_MESSAGE);
    return account;
  }
}
