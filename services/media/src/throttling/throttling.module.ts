import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { UploadThrottleService } from './upload-throttle.service';
import { UPLOAD_WINDOW_MODEL, uploadWindowSchema } from './upload-window.schema';

/** Counts uploads per user in windows every replica shares. */
@Module({
  imports: [MongooseModule.forFeature([{ name: UPLOAD_WINDOW_MODEL, schema: uploadWindowSchema }])],
  providers: [UploadThrottleService],
  exports: [UploadThrottleService],
})
export class ThrottlingModule {}
