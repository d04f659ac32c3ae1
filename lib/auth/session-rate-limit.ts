import { addToWindow } from '../data/rate-limits.ts';
import { ApiError } from '../http/errors.ts';
import type { SessionPrincipal } from './principal.ts';
import { RateLimiter, rateLimitHeaders, type RateDecision } from './rate-limit.ts';

/**
 * Dashboard sessions are rate-limited per user, as API keys are per key (docs/security.md): every
 * session of a user counts against one fixed window a minute, kept in the same counter items as
 * the keys' (lib/data/rate-limits.ts) under `user:{userId}`, with the same limiter (exact while
 * the limit is under 200 a minute, and past half of any limit). A person clicking through the
 * dashboard makes a few requests a page; a script holding a stolen or scripted session is cut off.
 */
export const SESSION_RATE_LIMIT_PER_MINUTE = 300;

let limiter: RateLimiter | undefined;

/** The counter's name for a user: never a key id (`key_…`), so the two never share a window. */
export const userCounter = (userId: string): string => `user:${userId}`;

/** 429 for a session over its user's limit. */
export class SessionRateLimitError extends ApiError<'rate_limit_error'> {
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super(429, 'rate_limit_error', `Too many requests from this user's dashboard sessions (at most ${SESSION_RATE_LIMIT_PER_MINUTE} a minute).`, {
      suggestion: `Retry after ${retryAfterSeconds} seconds. Scripts should use an API key.`,
      headers: { 'Retry-After': String(retryAfterSeconds), ...headers },
    });
  }
}

/** Counts a session request against its user's limit. */
export async function sessionRateLimit(principal: SessionPrincipal): Promise<{ decision: RateDecision; headers: Record<string, string> }> {
  limiter ??= new RateLimiter({ store: addToWindow });
  const decision = await limiter.admit(userCounter(principal.userId), SESSION_RATE_LIMIT_PER_MINUTE);
  return { decision, headers: rateLimitHeaders(decision) };
}
