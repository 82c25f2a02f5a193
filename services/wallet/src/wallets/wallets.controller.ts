import { Body, Controller, Get, Put } from '@nestjs/common';
import type { Wallet } from '@shop/contracts';
import { AdminOnly } from '@shop/service-kit';
import { UpdateWalletDto } from './dto/update-wallet.dto';
import { WalletsService } from './wallets.service';

@Controller('api/wallet')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Get('all-wallets')
  all(): Promise<Wallet[]> {
    return this.wallets.all();
  }

  @Put('update-wallet')
  @AdminOnly()
  update(@Body() body: UpdateWalletDto): Promise<Wallet> {
    return this.wallets.update(body);
  }
}
