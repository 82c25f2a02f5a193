import { MEDIA_MAX_BYTES, type StoreSeedImageRequest } from '@shop/contracts';
import { IsBase64, IsString, Matches, MaxLength } from 'class-validator';

export class StoreSeedImageDto implements StoreSeedImageRequest {
  @IsString()
  @Matches(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { message: 'seedKey must be lower-case words joined by -' })
  @MaxLength(100)
  seedKey!: string;

  @IsString()
  @MaxLength(255)
  fileName!: string;

  @IsString()
  @IsBase64()
  @MaxLength(Math.ceil(MEDIA_MAX_BYTES / 3) * 4)
  contentBase64!: string;
}
