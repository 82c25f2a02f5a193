import { ApiProperty } from '@nestjs/swagger';

/** A website settings record as the API answers it: the source of the contract type `SiteSettings`. */
export class SiteSettingsResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() siteName!: string;
  @ApiProperty() currency!: string;
  @ApiProperty({ description: "Logo image URL (one of the shop's media URLs), or ''" }) logo!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Products without a threshold of their own are low on stock at this many units or fewer',
  })
  lowStockThreshold!: number;
}
