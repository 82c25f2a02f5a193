// Server-only (@shop/state/server): the render services' reads. Apart from server-answers.ts, which the
// shell's browser code bundles, so that this module's use of the HTTP client's internals stays off pages.
import { genericFailure, parseJson, serverMessage } from '../http/api-fetch';
import { KEPT_ANSWER_HEADERS, type ServerAnswer } from './server-answers';

/**
 * A service's answer as a rendered page keeps it: the body and kept headers of a success, or the message the
 * browser's client would show for a failure (the same words, so hydration matches). Undefined for an answer a
 * retry may change (5xx, 429, 408) or that is not JSON: such a read cannot be drawn on the server.
 */
export async function serverAnswerOf(response: Response): Promise<ServerAnswer | undefined> {
  // A server's trouble, a refusal for load (429: the gateway's rate limit) or a timeout (408) is not the
  // page's content: the part is drawn in the browser, which asks again.
  if (response.status >= 500 || response.status === 429 || response.status === 408) return undefined;
  const parsed = parseJson(await response.text());
  if (!response.ok) {
    return {
      status: response.status,
      ok: false,
      message: serverMessage(parsed) ?? genericFailure(response.status),
    };
  }
  if (parsed === undefined || typeof parsed === 'symbol') return undefined;
  const headers: Record<string, string> = {};
  for (const name of KEPT_ANSWER_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, ok: true, data: parsed, headers };
}
