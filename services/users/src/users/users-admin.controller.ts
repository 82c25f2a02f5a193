import { Controller, Delete, Get, Param, Put, Query, Res } from '@nestjs/common';
import { AdminOnly, type AuthenticatedUser, CurrentUser } from '@shop/service-kit';
import { type Confirmation, TOTAL_COUNT_HEADER, type UserSummary } from '@shop/contracts';
import { ListUsersQuery } from './dto/list-users.query';
import { UsersAdminService } from './users-admin.service';

/** The part of the platform's reply the list uses (users does not depend on fastify itself). */
interface HeaderReply {
  header(name: string, value: string): unknown;
}

@Controller('api/users')
@AdminOnly()
export class UsersAdminController {
  constructor(private readonly admin: UsersAdminService) {}

  /** Accounts matching the query (one page when asked), the number of all matches in X-Total-Count. */
  @Get('all-users')
  async list(
    @Query() query: ListUsersQuery,
    @Res({ passthrough: true }) reply: HeaderReply,
  ): Promise<UserSummary[]> {
    const { users, total } = await this.admin.list(query);
    reply.header(TOTAL_COUNT_HEADER, String(total));
    return users;
  }

  @Delete('delete/:id')
  delete(@CurrentUser() actor: AuthenticatedUser, @Param('id') id: string): Promise<Confirmation> {
    return this.admin.delete(actor, id);
  }

  @Put('markadmin/:id')
  markAdmin(@Param('id') id: string): Promise<UserSummary> {
    return this.admin.markAdmin(id);
  }
}
