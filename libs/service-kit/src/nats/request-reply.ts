import { HttpException, ServiceUnavailableException } from '@nestjs/common';
import { type ClientProxy, RpcException } from '@nestjs/microservices';
import { TimeoutError, firstValueFrom, timeout } from 'rxjs';

/** What a @MessagePattern handler throws (as an RpcException payload) to refuse a command with a status. */
export interface RpcRefusal {
  status: number;
  message: string;
}

function isRefusal(error: unknown): error is RpcRefusal {
  const candidate = error as Partial<RpcRefusal> | null;
  return typeof candidate?.status === 'number' && typeof candidate.message === 'string';
}

/**
 * Sends a command over NATS request/reply and waits at most `timeoutMs`.
 * No answer (timeout, no responders, broker down) becomes a 503 naming the dependency;
 * a refusal from the other side keeps its status and message.
 */
export async function requestReply<TResult>(
  client: ClientProxy,
  pattern: string,
  payload: unknown,
  timeoutMs: number,
): Promise<TResult> {
  try {
    return await firstValueFrom(client.send<TResult>(pattern, payload).pipe(timeout(timeoutMs)));
  } catch (error) {
    if (isRefusal(error) && error.status >= 400 && error.status < 500) {
      throw new HttpException({ message: error.message }, error.status);
    }
    const dependency = pattern.split('.')[0] ?? pattern;
    const reason = error instanceof TimeoutError ? 'did not answer in time' : 'is unavailable';
    throw new ServiceUnavailableException(`The ${dependency} service ${reason}, please try again`);
  }
}

/** Refuses a NATS command with a status the caller's HTTP answer will carry (e.g. 409 out of stock). */
export function rpcRefusal(status: number, message: string): RpcException {
  return new RpcException({ status, message } satisfies RpcRefusal);
}
