import { Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { AdminOnly, type AuthenticatedUser, CurrentUser } from '@shop/service-kit';
import type { Confirmation, UserSummary } from '@shop/contracts';
import { UsersAdminService } from './users-admin.service';

@Controller('api/users')
@AdminOnly()
export class UsersAdminController {
  constructor(private readonly admin: UsersAdminService) {}

  @Get('all-users')
  list(): Promise<UserSummary[]> {
    return this.admin.list();
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
