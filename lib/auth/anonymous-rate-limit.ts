import { config } from '../config.ts';
import { addToWindow } from '../data/rate-limits.ts';
import { RateLimitError } from '../http/errors.ts';
import { RateLimiter, rateLimitHeaders, type RateDecision } from './rate-limit.ts';

/**
 * Requests without credentials to the read API (the `auth: 'optional'` routes: the EN 18222 reads,
 * docs/access.md#reads) are rate-limited per client address (docs/security.md), as API keys are per
 * key: one fixed window a minute, counted in the same counter items (lib/data/rate-limits.ts) under
 * `ip:{address}`, ANON_RATE_LIMIT_PER_MINUTE (default 120). An IPv6 caller counts by its /64, which
 * one subscriber holds whole. The address is the one API Gateway saw the connection come from
 * (`requestContext.http.sourceIp`; locally the gateway's socket), never a header a client can set.
 */
let limiter: RateLimiter | undefined;

/** The address a limit counts: an IPv4 address as it is (also when mapped into IPv6), an IPv6 address by its /64. */
export function addressBucket(address: string): string {
  const lower = address.trim().toLowerCase();
  const mapped = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (mapped) return mapped[1] as string;
  if (!lower.includes(':')) return lower || 'unknown';
  const [head = '', tail] = lower.split('::');
  const groupsOf = (part: string): string[] => (part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : []);
  const first = groupsOf(head);
  const last = tail === undefined ? [] : groupsOf(tail);
  const groups = tail === undefined ? first : [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/** The counter's name for an address: never a key id (`key_…`) or a user (`user:…`), so none share a window. */
export const addressCounter = (address: string): string => `ip:${addressBucket(address)}`;

/** Counts a request without credentials against its address's limit; 429 past it. */
export async function anonymousRateLimit(address: string): Promise<{ decision: RateDecision; headers: Record<string, string> }> {
  limiter ??= new RateLimiter({ store: addToWindow });
  const limit = config().anonymousRateLimitPerMinute;
  const decision = await limiter.admit(addressCounter(address), limit);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new RateLimitError(decision.retryAfterSeconds, headers, `Too many requests without credentials from this address (at most ${limit} a minute).`, 'or send an API key: it has a limit of its own');
  }
  return { decision, headers };
}
