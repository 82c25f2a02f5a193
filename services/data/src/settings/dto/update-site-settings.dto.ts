import { SITE_SETTINGS_LIMITS } from '@shop/contracts';
import { IsInt, IsMongoId, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DecoratorStack, IsMediaUrlOrEmpty, Trim } from '@shop/service-kit';

/** A required text of the settings, trimmed, of at most `max` characters. */
const SettingText = (max: number): PropertyDecorator =>
  DecoratorStack(
    Trim(),
    IsString({ message: '$property must be a string' }),
    IsNotEmpty({ message: '$property is required' }),
    MaxLength(max, { message: `$property must be at most ${max} characters` }),
  );

/** Body of `PUT api/data/update-data`. */
export class UpdateSiteSettingsDto {
  @IsMongoId({ message: 'id must be the id of a settings record' })
  id!: string;

  @SettingText(SITE_SETTINGS_LIMITS.siteName)
  siteName!: string;

  @SettingText(SITE_SETTINGS_LIMITS.currency)
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
