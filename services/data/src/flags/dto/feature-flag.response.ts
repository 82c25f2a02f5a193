import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FeatureFlagVariantResponse {
  @ApiProperty({ description: 'The variant\'s name, e.g. "off", "50%", "2s"' }) name!: string;
  @ApiProperty({
    description: 'What the flag gives when this variant is chosen',
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
  })
  value!: string | number | boolean;
}

/** A fault flag as the admin screen shows it: the source of the contract type `FeatureFlag`. */
export class FeatureFlagResponse {
  @ApiProperty({ description: "The flag's key, as the services evaluate it" }) key!: string;
  @ApiProperty({ description: 'What it breaks when on' }) description!: string;
  @ApiProperty({ description: 'The service it acts in ("every service" for the relay and readiness flags)' })
  service!: string;
  @ApiProperty({ type: [FeatureFlagVariantResponse] }) variants!: FeatureFlagVariantResponse[];
  @ApiProperty({ description: 'The variant chosen now; "off" changes nothing' }) variant!: string;
  @ApiPropertyOptional({ description: 'When it was last switched', format: 'date-time' }) switchedAt?: string;
  @ApiPropertyOptional({ description: 'The admin who last switched it (their user id)' }) switchedBy?: string;
}
