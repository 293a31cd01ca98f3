/**
 * The one HTTP call both kinds of provider make (embedders.ts, rerankers.ts): POST a JSON body and read the
 * answer's text within a time limit (`timeoutMs`, 30 s unless the provider says otherwise). A call that gets
 * no answer in time, or none at all, is a ProviderCallError; each provider turns it into its own error code.
 */

/** How long one call may take when the provider's spec does not say (`timeoutMs`). */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 30_000;

/** The provider's `timeoutMs`, checked, or the default. */
export function providerTimeoutMs(what: string, timeoutMs: unknown): number {
  const value = timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new TypeError(`${what}: timeoutMs must be a positive integer`);
  return value;
}

/** No answer within the time limit ('timeout'), or no connection or a broken one ('unreachable'). */
export class ProviderCallError extends Error {
  readonly kind: 'timeout' | 'unreachable';
  constructor(kind: 'timeout' | 'unreachable', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = 'ProviderCallError';
  }
}

/** POSTs `body` to `url`; the answer's status and text, whatever the status. */
export async function postJson(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number): Promise<{ response: Response; text: string }> {
  try {
    // The signal covers reading the body too: a server that sends headers and then stalls times out as well.
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body, signal: AbortSignal.timeout(timeoutMs) });
    return { response, text: await response.text() };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new ProviderCallError('timeout', `no answer from ${url} within ${timeoutMs} ms`, { cause: error });
    }
    throw new ProviderCallError('unreachable', `${url} could not be reached (${messageOf(error)})`, { cause: error });
  }
}

/** An error's own message, or its cause's (fetch's "fetch failed" hides the reason in its cause). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? error.cause.message : error.message;
  return String(error);
}
