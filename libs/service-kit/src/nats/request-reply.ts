import { HttpException, ServiceUnavailableException } from '@nestjs/common';
import { type ClientProxy, NatsRecordBuilder, RpcException } from '@nestjs/microservices';
import { commandSchemaVersion, schemaVersionOf } from '@shop/contracts';
import { TimeoutError, firstValueFrom, timeout } from 'rxjs';
import { endSpan, startPublish } from '../telemetry/nats-spans';

/** What a @MessagePattern handler throws (as an RpcException payload) to refuse a command with a status. */
export interface RpcRefusal {
  status: number;
  message: string;
}

function isRefusal(error: unknown): error is RpcRefusal {
  const candidate = error as Partial<RpcRefusal> | null;
  return typeof candidate?.status === 'number' && typeof candidate.message === 'string';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Thrown inside `requestReply` for a reply of a schema version newer than this build can read. */
class UnreadableReply extends Error {}

/**
 * Sends a command over NATS request/reply and waits at most `timeoutMs`.
 * No answer (timeout, no responders, broker down) becomes a 503 naming the dependency;
 * a refusal from the other side keeps its status and message.
 *
 * The request goes out with the command's `schemaVersion` (`COMMAND_SCHEMA_VERSIONS`). The reply's
 * is checked and taken off, so the caller gets the reply shape it knows: a reply without one is the
 * first version (a responder deployed before versions); one newer than this build knows is treated
 * like no answer. Fields the caller does not know stay in the reply: it reads the ones it uses.
 *
 * The command carries the trace context (`traceparent`) of its PRODUCER span `<pattern> publish`,
 * which lasts until the answer (or the timeout): the responder's span is its child.
 */
export async function requestReply<TResult>(
  client: ClientProxy,
  pattern: string,
  payload: unknown,
  timeoutMs: number,
): Promise<TResult> {
  const version = commandSchemaVersion(pattern);
  const request = isRecord(payload) ? { ...payload, schemaVersion: version } : payload;
  const dependency = pattern.split('.')[0] ?? pattern;
  const { span, headers } = startPublish(pattern);
  const record = new NatsRecordBuilder(request).setHeaders(headers).build();
  try {
    const reply = await firstValueFrom(client.send<unknown>(pattern, record).pipe(timeout(timeoutMs)));
    endSpan(span);
    if (!isRecord(reply)) return reply as TResult;
    const replyVersion = schemaVersionOf(reply);
    if (replyVersion === undefined || replyVersion > version) throw new UnreadableReply();
    const { schemaVersion: _read, ...result } = reply;
    return result as TResult;
  } catch (error) {
    if (isRefusal(error) && error.status >= 400 && error.status < 500) {
      span.setAttribute('shop.refusal.status', error.status);
      endSpan(span);
      throw new HttpException({ message: error.message }, error.status);
    }
    if (span.isRecording()) endSpan(span, error);
    const reason =
      error instanceof TimeoutError
        ? 'did not answer in time'
        : error instanceof UnreadableReply
          ? 'gave an answer of a newer version'
          : 'is unavailable';
    throw new ServiceUnavailableException(`The ${dependency} service ${reason}, please try again`);
  }
}

/** Refuses a NATS command with a status the caller's HTTP answer will carry (e.g. 409 out of stock). */
export function rpcRefusal(status: number, message: string): RpcException {
  return new RpcException({ status, message } satisfies RpcRefusal);
}
