import { ApiProperty } from '@nestjs/swagger';
import type { UploadImageResponse } from '@shop/contracts';

/** The answer to an upload, for the OpenAPI document (implements the contract type). */
export class UploadImageBody implements UploadImageResponse {
  @ApiProperty({
    description: 'Where the image is served: /api/media/<24 hex id>/<timestamp>-<slug>.<png|jpg|webp|gif>',
  })
  url!: string;
}
