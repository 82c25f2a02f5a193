import { SITE_SETTINGS_LIMITS } from '@shop/contracts';
import { IsMongoId, IsNotEmpty, IsString, MaxLength } from 'class-validator';
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
}
