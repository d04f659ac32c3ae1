import { passportJsonUrl, PASSPORT_JSON_SEGMENT } from '../page-urls.ts';
import type { Tenant } from '../tenant.ts';
import { ELEMENTS } from './element-map.ts';

/**
 * The public JSON of each aspect of a battery passport version, beside the version's other pages
 * (lib/domain/page-urls.ts, docs/battery.md#the-public-page-json-and-links):
 *
 *   {origin}/{orgId}/{environment}/p/{gtin14}/{version}/{aspect}.json
 *
 * e.g. `…/3/carbonFootprint.json`: the version's read form with only that aspect's public elements.
 * Immutable like every version page. No imports but the page URLs and the element map: the resolver
 * and the linkset use it.
 */

/** The aspects in the element map's order (the order of docs/battery.md#the-data). */
export const ASPECT_NAMES: readonly string[] = [...new Set(ELEMENTS.map((element) => element.path.split('.')[0] as string))];

/** The last path segment of an aspect's JSON. */
export const aspectJsonSegment = (aspect: string): string => `${aspect}.json`;

/** Every aspect's segment, for the document's `{page}` values. */
export const ASPECT_JSON_SEGMENTS: readonly string[] = ASPECT_NAMES.map(aspectJsonSegment);

/** The aspect a page segment names (`carbonFootprint.json` → `carbonFootprint`), or undefined. */
export function aspectOfPage(page: string): string | undefined {
  if (!page.endsWith('.json') || page === PASSPORT_JSON_SEGMENT) return undefined;
  const aspect = page.slice(0, -'.json'.length);
  return ASPECT_NAMES.includes(aspect) ? aspect : undefined;
}

/** The public JSON of one aspect of one version. */
export function aspectJsonUrl(origin: string, tenant: Tenant, gtin14: string, version: number, aspect: string): string {
  if (!ASPECT_NAMES.includes(aspect)) throw new Error(`A battery passport has no aspect "${aspect}".`);
  return `${passportJsonUrl(origin, tenant, gtin14, version).slice(0, -PASSPORT_JSON_SEGMENT.length)}${aspectJsonSegment(aspect)}`;
}
