import { Body, Controller, Get, Put } from '@nestjs/common';
import type { SiteSettings } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ApiRecordOperation, type AuthenticatedUser, CurrentUser } from '@shop/service-kit';
import { SiteSettingsResponse } from './dto/site-settings.response';
import { UpdateSiteSettingsDto } from './dto/update-site-settings.dto';
import { SiteSettingsService } from './site-settings.service';

@ApiTags('data')
@Controller('api/data')
export class SiteSettingsController {
  constructor(private readonly settings: SiteSettingsService) {}

  @Get('all-data')
  @ApiOperation({ summary: 'The website settings records; the storefront uses the first' })
  @ApiOkResponse({ type: [SiteSettingsResponse] })
  all(): Promise<SiteSettings[]> {
    return this.settings.all();
  }

  @Put('update-data')
  @AdminOnly()
  @ApiRecordOperation({ summary: 'Change the website settings (admins)' }, SiteSettingsResponse)
  update(
    @CurrentUser() admin: AuthenticatedUser,
    @Body() body: UpdateSiteSettingsDto,
  ): Promise<SiteSettings> {
    return this.settings.update(admin, body);
  }
}
