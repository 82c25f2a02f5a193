import { ApiProperty } from '@nestjs/swagger';
import type { SiteSettings } from '@shop/contracts';

/** A website settings record as the API answers it, for its OpenAPI document (implements the contract type). */
export class SiteSettingsResponse implements SiteSettings {
  @ApiProperty() _id!: string;
  @ApiProperty() siteName!: string;
  @ApiProperty() currency!: string;
  @ApiProperty({ description: "Logo image URL (one of the shop's media URLs), or ''" }) logo!: string;
}
