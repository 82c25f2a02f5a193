import { Controller, Get } from '@nestjs/common';
import type { SiteSettings } from '@shop/contracts';
import { SiteSettingsService } from './site-settings.service';

@Controller('api/data')
export class SiteSettingsController {
  constructor(private readonly settings: SiteSettingsService) {}

  @Get('all-data')
  all(): Promise<SiteSettings[]> {
    return this.settings.all();
  }
}
