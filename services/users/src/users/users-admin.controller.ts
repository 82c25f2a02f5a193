import { Controller, Delete, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminOnly,
  ApiErrors,
  type AuthenticatedUser,
  CurrentUser,
  type HeaderReply,
  TOTAL_COUNT_HEADERS,
  withTotalCount,
} from '@shop/service-kit';
import { ConfirmationResponse, UserSummaryResponse } from './dto/user.response';
import type { Confirmation, UserSummary } from '@shop/contracts';
import { ListUsersQuery } from './dto/list-users.query';
import { UsersAdminService } from './users-admin.service';

@ApiTags('users')
@Controller('api/users')
@AdminOnly()
export class UsersAdminController {
  constructor(private readonly admin: UsersAdminService) {}

  /** Accounts matching the query (one page when asked), the number of all matches in X-Total-Count. */
  @Get('all-users')
  @ApiOperation({ summary: 'Accounts matching a search, one page when asked (admins)' })
  @ApiOkResponse({ type: [UserSummaryResponse], headers: TOTAL_COUNT_HEADERS })
  async list(
    @Query() query: ListUsersQuery,
    @Res({ passthrough: true }) reply: HeaderReply,
  ): Promise<UserSummary[]> {
    const { users, total } = await this.admin.list(query);
    return withTotalCount(reply, users, total);
  }

  @Delete('delete/:id')
  @ApiOperation({ summary: 'Delete an account other than your own (admins)' })
  @ApiOkResponse({ type: ConfirmationResponse })
  @ApiErrors(404)
  delete(@CurrentUser() actor: AuthenticatedUser, @Param('id') id: string): Promise<Confirmation> {
    return this.admin.delete(actor, id);
  }

  @Put('markadmin/:id')
  @ApiOperation({ summary: 'Make an account an admin (admins)' })
  @ApiOkResponse({ type: UserSummaryResponse })
  @ApiErrors(404)
  markAdmin(@CurrentUser() actor: AuthenticatedUser, @Param('id') id: string): Promise<UserSummary> {
    return this.admin.markAdmin(actor, id);
  }
}
