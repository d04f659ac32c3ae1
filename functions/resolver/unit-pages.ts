import { config } from '../../lib/config.ts';
import { getUnitPage } from '../../lib/data/scan-reads.ts';
import { withLabelTerms } from './label-terms.ts';
import { unitBackupUrl } from '../../lib/domain/backup.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import type { PublicView } from '../../lib/data/public-reads.ts';
import { parsePageRef } from '../../lib/domain/page-urls.ts';
import type { Passport, PassportVersion } from '../../lib/domain/passport.ts';
import { toPassportView } from '../../lib/domain/passport-view.ts';
import { parseUnitPageRef, unitPublicView, unitValue, type UnitPublicView, type UnitRecord } from '../../lib/domain/unit.ts';
import { NotFoundError } from '../../lib/http/errors.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { overlayItemData } from '../../lib/domain/battery/overlay.ts';
import { isBatteryPassport, publicPassportData } from '../../lib/domain/passport-kinds.ts';
import { renderBatteryPage } from './page/battery.ts';
import { renderElabel, renderNotFound } from './page/elabel.ts';
import { pageHeaders, tenantOfPath } from './page/http.ts';
import { movedPage } from './moved.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Lang } from './page/i18n.ts';
import { IMMUTABLE, inspectLinks, NOT_FOUND_CACHE, notOffered, versionLanguages } from './pages.ts';

/**
 * The immutable pages of a batch or an item (lib/domain/unit.ts, docs/resolver.md#batches-and-items):
 * `/{orgId}/{environment}/p/{gtin14}/{version}/{10|21}/{lot|serial}/{recordVersion}/{lang|passport.json}`,
 * the product's passport version with the record's version. Both versions never change, so the
 * page is cached for a year like a version page; the resolver's 307 always names the current ones.
 * One BatchGetItem per page; no scan is counted (the resolver counted it).
 */

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Content-Language, Request-Id' };
const isLang = (value: string): value is Lang => (LANGUAGES as readonly string[]).includes(value);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the public may read of a record's data: of a battery's, only its public elements (its
 * identifiers and manufacturing date; its status and condition are Annex XIII point 4, for persons
 * with a legitimate interest: docs/battery.md#audiences); every other category's data whole.
 */
export const publicUnitData = (category: string, data: Record<string, unknown>): Record<string, unknown> =>
  category === 'battery' ? (publicPassportData(category, data) as Record<string, unknown>) : data;

/**
 * The passport data a record's page shows: the model's, with what the record states of the same
 * facts in place of it. A wine lot's analysis gives its own actual alcoholic strength.
 */
export function overlayUnitData(category: string, passport: PassportVersion['data'], unit: Record<string, unknown>): PassportVersion['data'] {
  // A battery's view: the model's public elements with the battery's own laid over them (docs/battery.md#model-and-item).
  if (isBatteryPassport(category, passport)) return overlayItemData(publicPassportData(category, passport), unit);
  const analysis = unit.analysis;
  if (category === 'wine' && isRecord(analysis) && typeof analysis.alcoholByVolume === 'number') return { ...passport, alcoholByVolume: analysis.alcoholByVolume };
  return passport;
}

/** The JSON read form of a record's page: the passport's, with the record beside it (`serial` and `lot` at the top too). */
export type UnitPassport = Passport & { lot: string | null; serial?: string; batch?: UnitPublicView; item?: UnitPublicView };

/**
 * A record's read form. Its `backupUrl` names the record version's public copy (the copy keeps one
 * per record version: docs/backup.md#the-public-copy), when the service keeps one.
 */
export function unitPassportView(tenant: Tenant, page: PublicView & { passport: PassportVersion }, unit: UnitRecord): UnitPassport {
  const data = publicUnitData(page.category, unit.data);
  const view = toPassportView(page, { ...page.passport, data: overlayUnitData(page.category, page.passport.data, data) });
  const record = unitPublicView(unit, data);
  const origin = config().backupPublicOrigin;
  const backup = origin ? { backupUrl: unitBackupUrl(origin, tenant, unit.gtin, unit.kind, unitValue(unit), unit.version) } : {};
  return unit.kind === 'item'
    ? { ...view, ...backup, serial: unit.serial ?? '', lot: unit.lot ?? null, item: record }
    : { ...view, ...backup, lot: unit.lot ?? null, batch: record };
}

/** The record's line on its page: its lot, serial and second-life lineage. */
const unitLine = (unit: UnitRecord) => ({
  ...(unit.lot === undefined ? {} : { lot: unit.lot }),
  ...(unit.serial === undefined ? {} : { serial: unit.serial }),
  ...(unit.lineage === undefined ? {} : { lineage: unit.lineage }),
});

/** GET and HEAD of a record's page (the routes `…/p/{gtin}/{version}/{ai}/{unit}/{unitVersion}/{page}`). */
export async function serveUnitPage(event: HttpEvent): Promise<HttpResult> {
  const params = event.pathParameters ?? {};
  const last = params.page ?? '';
  const wantsJson = last.endsWith('.json');
  const notFoundLang: Lang = isLang(last) ? last : DEFAULT_LANGUAGE;
  const notFound = (): HttpResult =>
    wantsJson
      ? { statusCode: 404, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': NOT_FOUND_CACHE, ...CORS }, body: JSON.stringify(new NotFoundError('No published passport version is found under this URL.').toBody()) }
      : { statusCode: 404, headers: { ...pageHeaders(notFoundLang), 'Cache-Control': NOT_FOUND_CACHE, ...CORS }, body: renderNotFound(notFoundLang) };

  const tenant = tenantOfPath(event);
  const ref = parsePageRef(params.gtin ?? '', params.version ?? '', last);
  const unitRef = parseUnitPageRef(params.ai ?? '', params.unit ?? '', params.unitVersion ?? '');
  let result: HttpResult;
  if (!tenant || !ref || !unitRef || (ref.kind === 'elabel' && !isLang(ref.lang))) {
    result = notFound();
  } else {
    const unitPage = await getUnitPage(tenant, ref.gtin14, ref.version, unitRef);
    // An e-label shows the version's corrected terms (label-terms.ts); the JSON form does not need them.
    const found = unitPage && ref.kind !== 'json' ? { ...unitPage, page: await withLabelTerms(tenant, unitPage.page) } : unitPage;
    if (!found) result = (await movedPage(event, tenant, ref.gtin14)) ?? notFound();
    else {
      const view = unitPassportView(tenant, found.page, found.unit);
      // An e-label in a language its version does not offer sends to one it does (docs/labelling.md#sign-off).
      const elsewhere = ref.kind === 'json' ? undefined : notOffered(found.page, ref.lang as Lang);
      result =
        elsewhere ??
        (ref.kind === 'json'
          ? { statusCode: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': IMMUTABLE, ...CORS }, body: JSON.stringify(view) }
          : {
              statusCode: 200,
              headers: { ...pageHeaders(ref.lang), 'Cache-Control': IMMUTABLE, ...CORS },
              body: isBatteryPassport(view.category, view.data)
                ? renderBatteryPage(view, ref.lang as Lang, undefined, unitLine(found.unit), inspectLinks(tenant, ref.gtin14, { kind: found.unit.kind, value: unitValue(found.unit) }))
                : renderElabel(view, ref.lang as Lang, found.page.labelTerms?.[ref.lang as Lang], unitLine(found.unit), versionLanguages(found.page)),
            });
    }
  }
  if (event.requestContext.http.method === 'HEAD') delete result.body;
  return result;
}
