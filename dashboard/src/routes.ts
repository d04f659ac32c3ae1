/**
 * Hash routes (`#/products/…`): the dashboard is a set of static files, so every page works from
 * S3 and CloudFront without server-side rewrites.
 */
export type Route =
  | { page: 'products' }
  | { page: 'product'; productId: string; tab: ProductTab; unit?: string }
  | { page: 'keys' }
  | { page: 'webhooks' }
  | { page: 'webhook'; endpointId: string }
  | { page: 'domains' }
  | { page: 'event-subscriptions' }
  | { page: 'event-subscription'; subscriptionId: string }
  | { page: 'imports'; importId?: string }
  | { page: 'activity' }
  | { page: 'access' }
  | { page: 'legal-terms' }
  | { page: 'registry'; productId?: string }
  | { page: 'not-found' };

/** A product's sub-pages: its items and batches list (`#/products/{id}/items`) and each one (`…/items/{serial}`). */
export type ProductTab = 'overview' | 'passport' | 'items' | 'batches' | 'analytics';
const PRODUCT_TABS: readonly string[] = ['overview', 'passport', 'items', 'batches', 'analytics'] satisfies ProductTab[];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first, second, third, fourth] = parts;
  if (!first || (first === 'products' && !second)) return { page: 'products' };
  if (first === 'products' && second) {
    const tab = third ?? 'overview';
    if ((tab === 'items' || tab === 'batches') && fourth !== undefined && parts.length === 4) return { page: 'product', productId: second, tab, unit: fourth };
    if (PRODUCT_TABS.includes(tab) && parts.length <= 3) return { page: 'product', productId: second, tab: tab as ProductTab };
  }
  if (first === 'keys' && !second) return { page: 'keys' };
  if (first === 'webhooks' && !second) return { page: 'webhooks' };
  if (first === 'domains' && !second) return { page: 'domains' };
  if (first === 'activity' && !second) return { page: 'activity' };
  if (first === 'access' && !second) return { page: 'access' };
  if (first === 'legal-terms' && !second) return { page: 'legal-terms' };
  if (first === 'registry' && !third) return second ? { page: 'registry', productId: second } : { page: 'registry' };
  if (first === 'event-subscriptions' && !third) return second ? { page: 'event-subscription', subscriptionId: second } : { page: 'event-subscriptions' };
  if (first === 'imports' && !third) return second ? { page: 'imports', importId: second } : { page: 'imports' };
  if (first === 'webhooks' && second) return { page: 'webhook', endpointId: second };
  return { page: 'not-found' };
}

export const href = (...segments: string[]): string => `#/${segments.map(encodeURIComponent).join('/')}`;
