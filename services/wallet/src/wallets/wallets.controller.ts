import { Body, Controller, Get, Put } from '@nestjs/common';
import type { Wallet } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ApiRecordOperation, type AuthenticatedUser, CurrentUser } from '@shop/service-kit';
import { WalletResponse } from './dto/wallet.response';
import { UpdateWalletDto } from './dto/update-wallet.dto';
import { WalletsService } from './wallets.service';

@ApiTags('wallet')
@Controller('api/wallet')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Get('all-wallets')
  @ApiOperation({ summary: 'Where to pay, one wallet per payment method' })
  @ApiOkResponse({ type: [WalletResponse] })
  all(): Promise<Wallet[]> {
    return this.wallets.all();
  }

  @Put('update-wallet')
  @AdminOnly()
  @ApiRecordOperation({ summary: "Change a payment method's wallet (admins)" }, WalletResponse)
  update(@CurrentUser() admin: AuthenticatedUser, @Body() body: UpdateWalletDto): Promise<Wallet> {
    return this.wallets.update(admin, body);
  }
}
