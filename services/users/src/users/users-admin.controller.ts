import { Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminOnly,
  ApiRecordOperation,
  type AuthenticatedUser,
  CurrentUser,
  type Page,
  PagedList,
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
  @PagedList(UserSummaryResponse)
  list(@Query() query: ListUsersQuery): Promise<Page<UserSummary>> {
    return this.admin.list(query);
  }

  @Delete('delete/:id')
  @ApiRecordOperation({ summary: 'Delete an account other than your own (admins)' }, ConfirmationResponse)
  delete(@CurrentUser() actor: AuthenticatedUser, @Param('id') id: string): Promise<Confirmation> {
    return this.admin.delete(actor, id);
  }

  @Put('markadmin/:id')
  @ApiRecordOperation({ summary: 'Make an account an admin (admins)' }, UserSummaryResponse)
  markAdmin(@CurrentUser() actor: AuthenticatedUser, @Param('id') id: string): Promise<UserSummary> {
    return this.admin.markAdmin(actor, id);
  }
}
