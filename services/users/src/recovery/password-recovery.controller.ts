import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../throttling/client-address';
import type { Confirmation } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '@shop/service-kit';
import { ConfirmationResponse } from '../users/dto/user.response';
import { ForgotPasswordDto } from './dto/forgot-password.dto';
import { ResetPasswordDto } from './dto/reset-password.dto';
import { PasswordRecoveryService } from './password-recovery.service';

@ApiTags('users')
@ApiErrors(429)
@Controller('api/users')
export class PasswordRecoveryController {
  constructor(private readonly recovery: PasswordRecoveryService) {}

  @Post('forgot-password')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a reset code to an address (the same answer whether or not it has an account)',
  })
  @ApiOkResponse({ type: ConfirmationResponse })
  forgot(@Body() body: ForgotPasswordDto, @Req() request: FastifyRequest): Promise<Confirmation> {
    return this.recovery.forgot(body, clientAddress(request));
  }

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password with the code sent by e-mail' })
  @ApiOkResponse({ type: ConfirmationResponse })
  reset(@Body() body: ResetPasswordDto, @Req() request: FastifyRequest): Promise<Confirmation> {
    return this.recovery.reset(body, clientAddress(request));
  }
}
