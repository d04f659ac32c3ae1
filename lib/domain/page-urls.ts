import type { Tenant } from './tenant.ts';

/**
 * Immutable page URLs of a published passport version, on the platform resolver origin
 * (docs/architecture.md, resolver): one HTML e-label per language and one JSON read form.
 *
 *   {origin}/{orgId}/{environment}/p/{gtin14}/{version}/{lang}
 *   {origin}/{orgId}/{environment}/p/{gtin14}/{version}/passport.json
 *
 * A version never changes once published, so these answer with a one-year immutable
 * Cache-Control and the resolver's 307 always points at the current version. No npm imports:
 * the resolver and the dashboard both use it.
 */

/** The last path segment of a version's JSON read form. */
export const PASSPORT_JSON_SEGMENT = 'passport.json';

const GTIN14 = /^\d{14}$/;
const LANG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/;

function base(origin: string, tenant: Tenant, gtin14: string, version: number): string {
  if (!GTIN14.test(gtin14)) throw new Error(`A page URL takes a GTIN of 14 digits, not "${gtin14}".`);
  if (!Number.isSafeInteger(version) || version < 1) {
    throw new Error(`A page URL takes a version number of 1 or more, not ${version}.`);
  }
  const root = origin.replace(/\/+$/, '');
  return `${root}/${encodeURIComponent(tenant.orgId)}/${tenant.environment}/p/${gtin14}/${version}`;
}

/** The e-label page of one version in one language (the language tag is written lower-case). */
export function elabelPageUrl(
  origin: string,
  tenant: Tenant,
  gtin14: string,
  version: number,
  lang: string,
): string {
  const tag = lang.toLowerCase();
  if (!LANG.test(tag)) throw new Error(`A page URL takes a language tag such as "en", not "${lang}".`);
  return `${base(origin, tenant, gtin14, version)}/${tag}`;
}

/** The JSON passport (read form) of one version. */
export function passportJsonUrl(origin: string, tenant: Tenant, gtin14: string, version: number): string {
  return `${base(origin, tenant, gtin14, version)}/${PASSPORT_JSON_SEGMENT}`;
}

/** The last path segment of a version's signed credential (application/vc+jwt, docs/credentials.md). */
export const CREDENTIAL_JWT_SEGMENT = 'credential.jwt';

/** The signed credential of one version, beside its pages. */
export function credentialJwtUrl(origin: string, tenant: Tenant, gtin14: string, version: number): string {
  return `${base(origin, tenant, gtin14, version)}/${CREDENTIAL_JWT_SEGMENT}`;
}

export type PageRef =
  | { kind: 'elabel'; gtin14: string; version: number; lang: string }
  | { kind: 'json'; gtin14: string; version: number };

/**
 * Reads the part of a page path after `/p/` ({gtin14}/{version}/{lang|passport.json}).
 * Anything else (a GTIN not of 14 digits, a version that is not a canonical positive integer,
 * an upper-case or malformed language) is undefined: such a URL was never handed out.
 */
export function parsePageRef(gtin14: string, version: string, page: string): PageRef | undefined {
  if (!GTIN14.test(gtin14)) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(version)) return undefined;
  const v = Number(version);
  if (page === PASSPORT_JSON_SEGMENT) return { kind: 'json', gtin14, version: v };
  if (!LANG.test(page)) return undefined;
  return { kind: 'elabel', gtin14, version: v, lang: page };
}
