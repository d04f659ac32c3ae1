import { addToWindow } from '../data/rate-limits.ts';
import { RateLimitError } from '../http/errors.ts';
import { RateLimiter, rateLimitHeaders } from './rate-limit.ts';

/**
 * Actions of one organization that write into another's event log (docs/security.md): giving or
 * revoking an access grant, offering or cancelling a handover, asking for access, approving or
 * refusing an access request (docs/access.md#access-requests). Each writes an entry in both logs
 * and queues the other organization's webhook deliveries, so they are limited per ordered pair of
 * organizations: CROSS_ORGANIZATION_ACTIONS_PER_HOUR in a fixed one-hour window, counted in the
 * same counter items as the API keys' (lib/data/rate-limits.ts) under `pair:{from}>{to}`, exactly
 * (the limit is under 200, lib/auth/rate-limit.ts). A refused action writes nothing in either log.
 */
export const CROSS_ORGANIZATION_ACTIONS_PER_HOUR = 20;

let limiter: RateLimiter | undefined;

/** The counter of actions by `fromOrgId` that reach `toOrgId`. */
export const pairCounter = (fromOrgId: string, toOrgId: string): string => `pair:${fromOrgId}>${toOrgId}`;

/** Counts one cross-organization action; 429 past the pair's limit, before anything is written. */
export async function underPairLimit(fromOrgId: string, toOrgId: string): Promise<void> {
  limiter ??= new RateLimiter({ store: addToWindow, windowMs: 60 * 60 * 1000 });
  const decision = await limiter.admit(pairCounter(fromOrgId, toOrgId), CROSS_ORGANIZATION_ACTIONS_PER_HOUR);
  if (!decision.allowed) {
    throw new RateLimitError(
      decision.retryAfterSeconds,
      rateLimitHeaders(decision),
      `Too many grants, revocations, access requests and answers, handover offers and cancellations towards ${toOrgId} (at most ${CROSS_ORGANIZATION_ACTIONS_PER_HOUR} an hour): each writes into that organization's log.`,
      'or give one grant covering several products',
    );
  }
}
