import { touchApiKey } from '../data/api-keys.ts';
import { addToWindow } from '../data/rate-limits.ts';
import { logger } from '../http/logger.ts';
import type { ApiKeyPrincipal } from './principal.ts';

/** Adds requests to a key's window and returns the window's new total, shared by every instance. */
export type WindowStore = (keyId: string, windowStartSeconds: number, count: number, expiresAtSeconds: number) => Promise<number>;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window, as far as this instance knows. */
  remaining: number;
  /** End of the window, epoch seconds. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
  /** This request opened the key's window (across all instances): exactly one request a window is. */
  openedWindow: boolean;
  /** Whether this request made a DynamoDB call. */
  counted: boolean;
}

export interface RateLimiterOptions {
  store?: WindowStore;
  now?: () => number;
  windowMs?: number;
  /** Most requests an instance admits on its own before adding them to the shared counter. */
  maxBatch?: number;
  /** Longest an instance goes without adding its requests to the shared counter. */
  maxStaleMs?: number;
}

interface WindowState {
  windowStart: number;
  /** The shared total as of this instance's last call. */
  synced: number;
  /** Requests this instance admitted since, not yet added to the shared total. */
  pending: number;
  syncedAt: number;
}

/**
 * Fixed-window rate limiting per API key, counted in the table so that every Lambda instance sees
 * one count: an item per key and window, incremented with an atomic ADD (one UpdateItem, one write
 * unit), deleted by TTL after the window.
 *
 * To keep that write off most requests, an instance may admit a few requests on its own and add
 * them to the shared counter in one ADD: at most `maxBatch` (and at most 1% of the limit) at a
 * time, for at most `maxStaleMs`, and only while the window, as the instance last saw it, is less
 * than half used. Past half the limit every request makes the call and the count is exact, so the
 * limit holds to within (batch - 1) requests per instance that served the key while it looked
 * less than half used; small limits (under 200 a minute) are always exact.
 */
export class RateLimiter {
  private readonly windows = new Map<string, WindowState>();
  private readonly store: WindowStore;
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly maxBatch: number;
  private readonly maxStaleMs: number;

  constructor(options: RateLimiterOptions = {}) {
    this.store = options.store ?? addToWindow;
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxBatch = options.maxBatch ?? 10;
    this.maxStaleMs = options.maxStaleMs ?? 1_000;
  }

  async admit(keyId: string, limit: number): Promise<RateDecision> {
    const now = this.now();
    const windowStart = Math.floor(now / this.windowMs) * this.windowMs;
    const state = this.stateFor(keyId, windowStart);
    const batch = Math.min(this.maxBatch, Math.floor(limit / 100));
    const used = state.synced + state.pending + 1;
    /** `total`: this request's place in the window; `seen`: the most this instance knows of. */
    const decision = (total: number, seen: number, counted: boolean, openedWindow: boolean): RateDecision => ({
      allowed: total <= limit,
      limit,
      remaining: Math.max(0, limit - seen),
      resetAt: (windowStart + this.windowMs) / 1000,
      retryAfterSeconds: Math.max(1, Math.ceil((windowStart + this.windowMs - now) / 1000)),
      openedWindow,
      counted,
    });

    if (state.pending + 1 < batch && used <= limit / 2 && now - state.syncedAt < this.maxStaleMs) {
      state.pending++;
      return decision(used, used, false, false);
    }
    const count = state.pending + 1;
    state.pending = 0;
    const expiresAt = Math.ceil((windowStart + 2 * this.windowMs) / 1000);
    let total: number;
    try {
      total = await this.store(keyId, windowStart / 1000, count, expiresAt);
    } catch (error) {
      // The counter is unreachable: admit on this instance's own count rather than fail the request.
      state.pending += count;
      logger().warn('Rate limit counter unavailable; admitting on the local count', {
        keyId,
        error: error instanceof Error ? error.name : String(error),
      });
      return decision(state.synced + state.pending, state.synced + state.pending, false, false);
    }
    state.synced = Math.max(state.synced, total);
    state.syncedAt = now;
    return decision(total, state.synced + state.pending, true, total === count);
  }

  private stateFor(keyId: string, windowStart: number): WindowState {
    let state = this.windows.get(keyId);
    if (!state || state.windowStart !== windowStart) {
      if (this.windows.size >= 10_000) {
        for (const [id, s] of this.windows) if (s.windowStart < windowStart) this.windows.delete(id);
      }
      state = { windowStart, synced: 0, pending: 0, syncedAt: Number.NEGATIVE_INFINITY };
      this.windows.set(keyId, state);
    }
    return state;
  }
}

let limiter: RateLimiter | undefined;

export interface RateLimitOutcome {
  decision: RateDecision;
  headers: Record<string, string>;
  /**
   * Work the response must wait for but the request need not: recording `lastUsedAt`, done by the
   * one request a minute that opens the key's window. Never rejects.
   */
  background: Promise<void>;
}

/** Counts an API-key request against its key's limit. */
export async function rateLimit(principal: ApiKeyPrincipal): Promise<RateLimitOutcome> {
  limiter ??= new RateLimiter();
  const decision = await limiter.admit(principal.keyId, principal.rateLimitPerMinute);
  const background = decision.openedWindow
    ? touchApiKey(principal.tenant.orgId, principal.keyId, new Date().toISOString()).catch((error: unknown) => {
        logger().warn('Could not record lastUsedAt', { keyId: principal.keyId, error: error instanceof Error ? error.name : String(error) });
      })
    : Promise.resolve();
  return { decision, headers: rateLimitHeaders(decision), background };
}

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds of the window's end). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}
