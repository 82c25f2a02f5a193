import { SITE_SETTINGS_LIMITS } from '@shop/contracts';
import { IsInt, IsMongoId, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsMediaUrlOrEmpty, Trim } from '@shop/service-kit';

/** Body of `PUT api/data/update-data`. */
export class UpdateSiteSettingsDto {
  @IsMongoId({ message: 'id must be the id of a settings record' })
  id!: string;

  @Trim()
  @IsString({ message: 'siteName must be a string' })
  @IsNotEmpty({ message: 'siteName is required' })
  @MaxLength(SITE_SETTINGS_LIMITS.siteName, {
    message: `siteName must be at most ${SITE_SETTINGS_LIMITS.siteName} characters`,
  })
  siteName!: string;

  @Trim()
  @IsString({ message: 'currency must be a string' })
  @IsNotEmpty({ message: 'currency is required' })
  @MaxLength(SITE_SETTINGS_LIMITS.currency, {
    message: `currency must be at most ${SITE_SETTINGS_LIMITS.currency} characters`,
  })
  currency!: string;

  @IsMediaUrlOrEmpty()
  logo!: string;

  /** Products without a threshold of their own are low on stock at this many units or fewer; kept when absent. */
  @IsOptional()
  @IsInt({ message: 'lowStockThreshold must be a whole number' })
  @Min(0, { message: 'lowStockThreshold must be 0 or more' })
  @Max(SITE_SETTINGS_LIMITS.lowStockThreshold, {
    message: `lowStockThreshold must be at most ${SITE_SETTINGS_LIMITS.lowStockThreshold}`,
  })
  lowStockThreshold?: number;
}
