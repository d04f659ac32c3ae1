import { config } from '../../lib/config.ts';
import type { PublicView } from '../../lib/data/public-reads.ts';
import { getVersionPage } from '../../lib/data/scan-reads.ts';
import { passportBackupUrl } from '../../lib/domain/backup.ts';
import { aspectOfPage } from '../../lib/domain/battery/page-urls.ts';
import { PASSPORT_JSON_SEGMENT, parsePageRef } from '../../lib/domain/page-urls.ts';
import { isBatteryPassport, publicPassportData } from '../../lib/domain/passport-kinds.ts';
import type { Passport, PassportVersion } from '../../lib/domain/passport.ts';
import { toPassportView } from '../../lib/domain/passport-view.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { NotFoundError } from '../../lib/http/errors.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { renderBatteryPage, type BatteryPageLinks } from './page/battery.ts';
import { dppIdOf } from '../../lib/domain/dpp-id.ts';
import { inspectUrl } from '../../lib/domain/inspect.ts';
import { fallbackLanguage, offeredLanguages } from '../../lib/domain/labelling/page-languages.ts';
import { renderElabel, renderNotFound } from './page/elabel.ts';
import { withLabelTerms } from './label-terms.ts';
import { movedPage } from './moved.ts';
import { labelLanguage } from './linkset.ts';
import { pageHeaders, tenantOfPath } from './page/http.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Lang } from './page/i18n.ts';

/**
 * The immutable pages of a published passport version (lib/domain/page-urls.ts,
 * docs/api.md#the-public-resolver-and-its-e-label-page): `/{orgId}/{environment}/p/{gtin14}/{version}/{lang}`
 * (the e-label in one language) and `…/{version}/passport.json` (the read form). A published
 * version never changes, so a page answers with a one-year immutable Cache-Control and CloudFront
 * serves every repeat from its cache; the resolver's 307 always names the current version.
 *
 * One GetItem per page (the version's page item, lib/data/passports.ts), and for an e-label whose
 * version names a set of corrected terms not yet in the instance's memory one more (label-terms.ts). No scan is counted: the
 * scan was counted by the resolver's answer that led here. The page has the e-label's privacy
 * properties: no cookie, no script, nothing from another origin, a CSP naming the stylesheet's hash.
 * Nothing varies with request headers (the URL names the language), so nothing is in Vary.
 *
 * A battery passport (lib/domain/passport-kinds.ts) shows only its public elements, in its own page
 * (page/battery.ts), its JSON read form and one JSON per aspect (`…/{version}/{aspect}.json`,
 * lib/domain/battery/page-urls.ts): docs/battery.md#the-public-page-json-and-links.
 */

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A page that does not exist (yet): a version is published under a URL only once it exists. */
export const NOT_FOUND_CACHE = 'public, max-age=60';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Language, Request-Id',
};

const isLang = (value: string): value is Lang => (LANGUAGES as readonly string[]).includes(value);

function htmlResult(status: number, body: string, lang: Lang, cacheControl: string): HttpResult {
  return {
    statusCode: status,
    headers: { ...pageHeaders(lang), 'Cache-Control': cacheControl, ...CORS },
    body,
  };
}

function jsonResult(status: number, body: unknown, cacheControl: string): HttpResult {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': cacheControl, ...CORS },
    body: JSON.stringify(body),
  };
}


/** One aspect of (public) battery passport data: `{ [aspect]: … }`, or `{}` when the version has none of it. */
function aspectOnly(data: Record<string, unknown>, aspect: string): Record<string, unknown> {
  return Object.hasOwn(data, aspect) ? { [aspect]: data[aspect] } : {};
}

/** A published version as its pages read it: the version's page item. */
export type VersionPage = PublicView & { passport: PassportVersion };

/**
 * The JSON read form of a version (`…/{version}/passport.json`): what anyone may read (a battery
 * passport's public elements only, Art. 77(2); any other passport whole), with the `backupUrl` of
 * its public copy when the service keeps one (docs/backup.md#the-public-copy). The backup function
 * writes the same form to the public copy.
 */
export function versionReadForm(tenant: Tenant, version: VersionPage): Passport {
  const view = toPassportView(version, version.passport);
  const origin = config().backupPublicOrigin;
  return {
    ...view,
    data: publicPassportData(view.category, view.data),
    ...(origin ? { backupUrl: passportBackupUrl(origin, tenant, version.passport.gtin || version.gtin, version.passport.version) } : {}),
  };
}

/**
 * A version's page in one language, from its read form (versionReadForm): a battery passport's
 * public page, or the e-label (whose read form holds the whole passport) with the organization's
 * corrected terms. `links.inspect`: the battery page's link to the authorities' view.
 */
export function versionPageHtml(version: VersionPage, open: Passport, lang: Lang, links?: BatteryPageLinks): string {
  return isBatteryPassport(open.category, version.passport.data)
    ? renderBatteryPage(open, lang, undefined, undefined, links)
    : renderElabel(open, lang, version.labelTerms?.[lang], undefined, versionLanguages(version));
}

/**
 * The languages a version's e-label offers (docs/labelling.md#sign-off): the 24, or, when its
 * organization offers only the languages it signed off, those signed off when the version was
 * published (fixed on its page item, as its corrected terms are). A battery page offers the 24.
 */
export const versionLanguages = (version: Pick<VersionPage, 'labelLanguages' | 'passport' | 'category'>): readonly Lang[] =>
  isBatteryPassport(version.category, version.passport.data) ? LANGUAGES : offeredLanguages(version.labelLanguages, labelLanguage(version.passport));

/**
 * The answer to an e-label page in a language its version does not offer: a permanent redirect
 * (301, cached like the page: the version's languages never change) to the page in the language
 * it falls back to, relative since the URL ends with its language; undefined for a language offered.
 */
export function notOffered(version: Pick<VersionPage, 'labelLanguages' | 'passport' | 'category'>, lang: Lang): HttpResult | undefined {
  const offered = versionLanguages(version);
  if (offered.includes(lang)) return undefined;
  return { statusCode: 301, headers: { Location: fallbackLanguage(offered, labelLanguage(version.passport)), 'Cache-Control': IMMUTABLE, ...CORS }, body: '' };
}

/** The authenticated view of a passport for market surveillance authorities, on the API's origin (docs/access.md#market-surveillance-authorities). */
export const inspectLinks = (tenant: Tenant, gtin14: string, unit?: { kind: 'batch' | 'item'; value: string }): BatteryPageLinks => ({
  inspect: inspectUrl(config().publicApiOrigin, dppIdOf({ tenant, gtin14, ...(unit ? { unit } : {}) })),
});

/** GET and HEAD of a version page (the routes `/{orgId}/{environment}/p/{gtin}/{version}/{page}`). */
export async function servePage(event: HttpEvent): Promise<HttpResult> {
  const params = event.pathParameters ?? {};
  const page = params.page ?? '';
  const wantsJson = page.endsWith('.json');
  // The not-found page is in the URL's language when it is one of the page's: the answer depends on the URL alone.
  const notFoundLang: Lang = isLang(page) ? page : DEFAULT_LANGUAGE;
  const notFound = (): HttpResult =>
    wantsJson
      ? jsonResult(404, new NotFoundError('No published passport version is found under this URL.').toBody(), NOT_FOUND_CACHE)
      : htmlResult(404, renderNotFound(notFoundLang), notFoundLang, NOT_FOUND_CACHE);

  const tenant = tenantOfPath(event);
  // A battery aspect's JSON (carbonFootprint.json) is read like the JSON form, then narrowed to the aspect.
  const aspect = aspectOfPage(page);
  const ref = parsePageRef(params.gtin ?? '', params.version ?? '', aspect === undefined ? page : PASSPORT_JSON_SEGMENT);
  let result: HttpResult;
  if (!tenant || !ref || (ref.kind === 'elabel' && !isLang(ref.lang))) {
    result = notFound();
  } else {
    const version = await getVersionPage(tenant, ref.gtin14, ref.version);
    const open = version && versionReadForm(tenant, version);
    const battery = open !== undefined && isBatteryPassport(open.category, version?.passport.data);
    if (!version) result = (await movedPage(event, tenant, ref.gtin14)) ?? notFound();
    else if (!open || (aspect !== undefined && !battery)) result = notFound();
    else if (ref.kind === 'json') result = jsonResult(200, aspect === undefined ? open : { ...open, data: aspectOnly(open.data, aspect) }, IMMUTABLE);
    // An e-label in a language its version does not offer sends to one it does (docs/labelling.md#sign-off).
    else result = notOffered(version, ref.lang as Lang) ?? htmlResult(200, versionPageHtml(battery ? version : await withLabelTerms(tenant, version), open, ref.lang as Lang, inspectLinks(tenant, ref.gtin14)), ref.lang as Lang, IMMUTABLE);
  }
  if (event.requestContext.http.method === 'HEAD') delete result.body;
  return result;
}
