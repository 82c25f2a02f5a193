import { Body, Controller, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../throttling/client-address';
import { TooManyAttemptsFilter } from '../throttling/too-many-attempts.filter';
import type { Confirmation } from '@shop/contracts';
import { ForgotPasswordDto } from './dto/forgot-password.dto';
import { ResetPasswordDto } from './dto/reset-password.dto';
import { PasswordRecoveryService } from './password-recovery.service';

@Controller('api/users')
@UseFilters(TooManyAttemptsFilter)
export class PasswordRecoveryController {
  constructor(private readonly recovery: PasswordRecoveryService) {}

  @Post('forgot-password')
  @HttpCode(200)
  forgot(@Body() body: ForgotPasswordDto, @Req() request: FastifyRequest): Promise<Confirmation> {
    return this.recovery.forgot(body, clientAddress(request));
  }

  @Post('reset-password')
  @HttpCode(200)
  reset(@Body() body: ResetPasswordDto, @Req() request: FastifyRequest): Promise<Confirmation> {
    return this.recovery.reset(body, clientAddress(request));
  }
}
