import { Body, Controller, Get, Put } from '@nestjs/common';
import type { SiteSettings } from '@shop/contracts';
import { AdminOnly } from '@shop/service-kit';
import { UpdateSiteSettingsDto } from './dto/update-site-settings.dto';
import { SiteSettingsService } from './site-settings.service';

@Controller('api/data')
export class SiteSettingsController {
  constructor(private readonly settings: SiteSettingsService) {}

  @Get('all-data')
  all(): Promise<SiteSettings[]> {
    return this.settings.all();
  }

  @Put('update-data')
  @AdminOnly()
  update(@Body() body: UpdateSiteSettingsDto): Promise<SiteSettings> {
    return this.settings.update(body);
  }
}
