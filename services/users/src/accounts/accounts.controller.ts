import { Body, Controller, HttpCode, Post, Put, Req, UseFilters } from '@nestjs/common';
import { type AuthenticatedUser, Authenticated, CurrentUser } from '@shop/service-kit';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../throttling/client-address';
import { TooManyAttemptsFilter } from '../throttling/too-many-attempts.filter';
import type { UserInfo } from '@shop/contracts';
import { AccountsService } from './accounts.service';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';
import { UpdateProfileDto } from './dto/update-profile.dto';

@Controller('api/users')
@UseFilters(TooManyAttemptsFilter)
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('signup')
  signUp(@Body() body: SignUpDto, @Req() request: FastifyRequest): Promise<UserInfo> {
    return this.accounts.signUp(body, clientAddress(request));
  }

  @Post('signin')
  @HttpCode(200)
  signIn(@Body() body: SignInDto, @Req() request: FastifyRequest): Promise<UserInfo> {
    return this.accounts.signIn(body, clientAddress(request));
  }

  @Put('profile')
  @Authenticated()
  updateProfile(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: UpdateProfileDto,
    @Req() request: FastifyRequest,
  ): Promise<UserInfo> {
    return this.accounts.updateProfile(user, body, clientAddress(request));
  }
}
