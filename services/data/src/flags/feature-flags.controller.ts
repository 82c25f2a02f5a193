import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import type { FeatureFlag } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ApiRecordOperation, type AuthenticatedUser, CurrentUser } from '@shop/service-kit';
import { FeatureFlagResponse } from './dto/feature-flag.response';
import { SwitchFeatureFlagDto } from './dto/switch-feature-flag.dto';
import { FeatureFlagsService } from './feature-flags.service';

/** The fault flags, for admins (docs/observability.md, "Fault flags"). */
@ApiTags('data')
@Controller('api/data/flags')
export class FeatureFlagsController {
  constructor(private readonly flags: FeatureFlagsService) {}

  @Get()
  @AdminOnly()
  @ApiOperation({
    summary: 'Every fault flag with its variants and the one chosen (admins)',
    description: 'Each flag breaks one part of the running shop on purpose when switched from "off".',
  })
  @ApiOkResponse({ type: [FeatureFlagResponse] })
  list(): FeatureFlag[] {
    return this.flags.list();
  }

  @Put(':key')
  @AdminOnly()
  @ApiParam({ name: 'key', description: "The flag's key, e.g. orderPlacementFailure" })
  @ApiRecordOperation(
    {
      summary: 'Switch a fault flag to one of its variants (admins)',
      description:
        'Every service follows within seconds, without a restart; the audit trail records the switch.',
    },
    FeatureFlagResponse,
    409,
  )
  switch(
    @CurrentUser() admin: AuthenticatedUser,
    @Param('key') key: string,
    @Body() body: SwitchFeatureFlagDto,
  ): Promise<FeatureFlag> {
    return this.flags.switch(admin, key, body.variant);
  }
}
