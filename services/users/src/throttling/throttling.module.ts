import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AttemptThrottleService } from './attempt-throttle.service';
import { ATTEMPT_WINDOW_MODEL, attemptWindowSchema } from './attempt-window.schema';

/** Counts sign-in, sign-up and recovery attempts per account and per client address. */
@Module({
  imports: [MongooseModule.forFeature([{ name: ATTEMPT_WINDOW_MODEL, schema: attemptWindowSchema }])],
  providers: [AttemptThrottleService],
  exports: [AttemptThrottleService],
})
export class ThrottlingModule {}
