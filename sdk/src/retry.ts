/**
 * Retries (docs/sdk.md#retries): a request answered 429 or 503 is sent again after the answer's
 * `Retry-After`, or after an exponential backoff with jitter when it has none; a request that got no
 * answer (a lost connection) is sent again only when repeating it is safe: GET, HEAD, PUT, DELETE,
 * or a POST carrying an `Idempotency-Key` (the server replays the first answer, docs/api.md#retries-with-idempotency-key).
 * Such a POST answered 409 `idempotency_error` (its first copy still running) is retried too.
 * Every attempt sends a copy of the same Request, so the same Idempotency-Key goes with each.
 */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  maxRetries?: number;
  /** The longest `Retry-After` honoured, in seconds; an answer asking for longer is returned as it is. Default 60. */
  maxRetryAfterSeconds?: number;
  /** The first backoff without `Retry-After`, doubled at each retry (with jitter, at most 8 s). Default 500 ms. */
  initialDelayMs?: number;
  /** Called before each wait: what is retried, why, and for how long. */
  onRetry?: (retry: RetryInfo) => void;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  method: string;
  url: string;
  /** The status that caused the retry, or `undefined` for a request that got no answer. */
  status: number | undefined;
  delayMs: number;
  /** The request's Idempotency-Key, the same on every attempt. */
  idempotencyKey: string | undefined;
}

export type FetchLike = (request: Request) => Promise<Response>;

const SAFE_WITHOUT_ANSWER = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const MAX_BACKOFF_MS = 8_000;

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const backoffMs = (retry: number, initial: number): number => {
  const ceiling = Math.min(MAX_BACKOFF_MS, initial * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
};

/** Waits `ms`, or rejects with the reason once `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

async function isIdempotencyConflict(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  try {
    const body = (await response.clone().json()) as { error?: { type?: unknown } };
    return body.error?.type === 'idempotency_error';
  } catch {
    return false;
  }
}

/** A fetch that retries as described above, sending copies of the request through `fetchImpl`. */
export function retryingFetch(fetchImpl: FetchLike, options: RetryOptions = {}): FetchLike {
  const maxRetries = options.maxRetries ?? 3;
  const maxRetryAfterMs = (options.maxRetryAfterSeconds ?? 60) * 1000;
  const initialDelayMs = options.initialDelayMs ?? 500;

  return async (request) => {
    const idempotencyKey = request.headers.get('idempotency-key') ?? undefined;
    const replayable = SAFE_WITHOUT_ANSWER.has(request.method) || idempotencyKey !== undefined;
    for (let retry = 1; ; retry++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await fetchImpl(request.clone());
      } catch (error) {
        if (request.signal.aborted) throw error;
        failure = error;
      }
      let delayMs: number | undefined;
      if (retry <= maxRetries) {
        if (response === undefined) delayMs = replayable ? backoffMs(retry, initialDelayMs) : undefined;
        else if (response.status === 429 || response.status === 503) {
          const asked = retryAfterMs(response.headers);
          delayMs = asked === undefined ? backoffMs(retry, initialDelayMs) : asked <= maxRetryAfterMs ? asked : undefined;
        } else if (idempotencyKey !== undefined && (await isIdempotencyConflict(response))) delayMs = backoffMs(retry, initialDelayMs);
      }
      if (delayMs === undefined) {
        if (response === undefined) throw failure;
        return response;
      }
      await response?.body?.cancel();
      options.onRetry?.({ attempt: retry, method: request.method, url: request.url, status: response?.status, delayMs, idempotencyKey });
      await sleep(delayMs, request.signal);
    }
  };
}
