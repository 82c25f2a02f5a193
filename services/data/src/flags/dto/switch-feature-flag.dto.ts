import { IsNotEmpty, IsString } from 'class-validator';

/** Body of `PUT api/data/flags/:key`. */
export class SwitchFeatureFlagDto {
  /** One of the flag's variants; "off" turns it off. */
  @IsString({ message: 'variant must be a string' })
  @IsNotEmpty({ message: 'variant is required' })
  variant!: string;
}
