import { ApiProperty } from '@nestjs/swagger';

/** The answer to an upload: the source of the contract type `UploadImageResponse`. */
export class UploadImageBody {
  @ApiProperty({
    description: 'Where the image is served: /api/media/<24 hex id>/<timestamp>-<slug>.<png|jpg|webp|gif>',
  })
  url!: string;
}
