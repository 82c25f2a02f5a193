import { Body, Controller, HttpCode, Post, Put, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, type AuthenticatedUser, Authenticated, CurrentUser } from '@shop/service-kit';
import { UserInfoResponse } from '../users/dto/user.response';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../throttling/client-address';
import type { UserInfo } from '@shop/contracts';
import { AccountsService } from './accounts.service';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';
import { UpdateProfileDto } from './dto/update-profile.dto';

@ApiTags('users')
@ApiErrors(429)
@Controller('api/users')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('signup')
  @ApiOperation({ summary: 'Create an account and sign in' })
  @ApiCreatedResponse({ type: UserInfoResponse })
  @ApiErrors(409)
  signUp(@Body() body: SignUpDto, @Req() request: FastifyRequest): Promise<UserInfo> {
    return this.accounts.signUp(body, clientAddress(request));
  }

  @Post('signin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with e-mail and password' })
  @ApiOkResponse({ type: UserInfoResponse })
  @ApiErrors(401)
  signIn(@Body() body: SignInDto, @Req() request: FastifyRequest): Promise<UserInfo> {
    return this.accounts.signIn(body, clientAddress(request));
  }

  @Put('profile')
  @Authenticated()
  @ApiOperation({ summary: "Change the signed-in user's name, e-mail or password" })
  @ApiOkResponse({ type: UserInfoResponse, description: 'The account as changed, with a new token' })
  @ApiErrors(409)
  updateProfile(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: UpdateProfileDto,
    @Req() request: FastifyRequest,
  ): Promise<UserInfo> {
    return this.accounts.updateProfile(user, body, clientAddress(request));
  }
}
