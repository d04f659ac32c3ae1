/**
 * Hash routes (`#/products/…`): the dashboard is a set of static files, so every page works from
 * S3 and CloudFront without server-side rewrites.
 */
export type Route =
  | { page: 'products' }
  | { page: 'product'; productId: string; tab: 'overview' | 'passport' | 'analytics' }
  | { page: 'keys' }
  | { page: 'webhooks' }
  | { page: 'webhook'; endpointId: string }
  | { page: 'domains' }
  | { page: 'event-subscriptions' }
  | { page: 'event-subscription'; subscriptionId: string }
  | { page: 'imports'; importId?: string }
  | { page: 'activity' }
  | { page: 'legal-terms' }
  | { page: 'not-found' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first, second, third] = parts;
  if (!first || (first === 'products' && !second)) return { page: 'products' };
  if (first === 'products' && second) {
    const tab = third ?? 'overview';
    if (tab === 'overview' || tab === 'passport' || tab === 'analytics') return { page: 'product', productId: second, tab };
  }
  if (first === 'keys' && !second) return { page: 'keys' };
  if (first === 'webhooks' && !second) return { page: 'webhooks' };
  if (first === 'domains' && !second) return { page: 'domains' };
  if (first === 'activity' && !second) return { page: 'activity' };
  if (first === 'legal-terms' && !second) return { page: 'legal-terms' };
  if (first === 'event-subscriptions' && !third) return second ? { page: 'event-subscription', subscriptionId: second } : { page: 'event-subscriptions' };
  if (first === 'imports' && !third) return second ? { page: 'imports', importId: second } : { page: 'imports' };
  if (first === 'webhooks' && second) return { page: 'webhook', endpointId: second };
  return { page: 'not-found' };
}

export const href = (...segments: string[]): string => `#/${segments.map(encodeURIComponent).join('/')}`;
