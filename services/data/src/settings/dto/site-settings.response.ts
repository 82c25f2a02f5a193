import { ApiProperty } from '@nestjs/swagger';

/** A website settings record as the API answers it: the source of the contract type `SiteSettings`. */
export class SiteSettingsResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() siteName!: string;
  @ApiProperty() currency!: string;
  @ApiProperty({ description: "Logo image URL (one of the shop's media URLs), or ''" }) logo!: string;
}
