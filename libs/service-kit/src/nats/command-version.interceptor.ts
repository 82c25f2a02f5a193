import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { commandSchemaVersion, schemaVersionOf } from '@shop/contracts';
import { type Observable, map } from 'rxjs';
import { rpcRefusal } from './request-reply';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The responder's half of command versions (`requestReply` is the caller's): a request without
 * `schemaVersion` is the first version (a caller deployed before versions), one newer than this
 * build knows is refused with a 503 the caller retries (nothing was done; a replica that knows it
 * may answer next), and the reply carries the request's version. Unknown request fields never reach
 * a handler: the validation pipe keeps only what its DTO declares. HTTP requests pass untouched.
 */
@Injectable()
export class CommandVersionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rpc = context.switchToRpc();
    const pattern = rpc.getContext<NatsContext>().getSubject();
    const version = schemaVersionOf(rpc.getData());
    if (version === undefined) throw rpcRefusal(400, 'schemaVersion must be a positive whole number');
    if (version > commandSchemaVersion(pattern)) {
      throw rpcRefusal(503, `${pattern} version ${version} is not known here yet`);
    }
    // Every command has one version so far, so the handler's reply is that version's shape.
    return next
      .handle()
      .pipe(map((reply: unknown) => (isRecord(reply) ? { ...reply, schemaVersion: version } : reply)));
  }
}
