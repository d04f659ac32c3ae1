import { getPublicView } from '../../lib/data/scan-reads.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';

/**
 * The immutable pages of a product transferred to another organization (docs/transfers.md#the-printed-qr-codes):
 * its pages moved to the new owner's tenant with it, so a page URL under the former owner's path
 * answers 308 to the same page under the new owner's. Asked only when the page is not found (one
 * GetItem of the GTIN item, which is the pointer). Cached an hour, not a year: the product may move on.
 */
export const MOVED_CACHE = 'public, max-age=3600';

export async function movedPage(event: HttpEvent, tenant: Tenant, gtin14: string): Promise<HttpResult | undefined> {
  const view = await getPublicView(tenant, gtin14);
  if (view?.movedTo === undefined) return undefined;
  const segments = event.rawPath.split('/');
  // `/{orgId}/{environment}/p/…`: the organization is the first segment.
  if (segments[1] !== tenant.orgId) return undefined;
  segments[1] = view.movedTo;
  return { statusCode: 308, headers: { Location: segments.join('/'), 'Cache-Control': MOVED_CACHE, 'Access-Control-Allow-Origin': '*' } };
}
