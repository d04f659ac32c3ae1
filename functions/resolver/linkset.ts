import Negotiator from 'negotiator';
import type { PublicView } from '../../lib/data/public-reads.ts';
import { credentialJwtUrl, elabelPageUrl, PASSPORT_JSON_SEGMENT, passportJsonUrl } from '../../lib/domain/page-urls.ts';
import { config } from '../../lib/config.ts';
import { passportBackupUrl, unitBackupUrl } from '../../lib/domain/backup.ts';
import { dppIdOf } from '../../lib/domain/dpp-id.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { unitPageUrl, unitValue, type UnitRecord } from '../../lib/domain/unit.ts';
import { ASPECT_NAMES, aspectJsonUrl } from '../../lib/domain/battery/page-urls.ts';
import { isBatteryPassport, publicPassportData } from '../../lib/domain/passport-kinds.ts';
import { isLang } from '../../lib/domain/labelling/languages.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_NAMES, negotiateLanguage, type Lang } from './page/i18n.ts';

/**
 * The links the resolver knows for a resolved GTIN, the RFC 9264 linkset built from them, the
 * choice of one link for a request, and the resolver description file. Pure functions: no AWS,
 * no I/O. The rules and their sections of the GS1-Conformant Resolver standard are listed in
 * docs/resolver.md.
 */

export const LINKSET_CONTEXT_LINK =
  '<https://ref.gs1.org/standards/resolver/1.2.0/linkset-context>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"';

/** The GS1 Web Vocabulary namespace: link types are `gs1:{name}` as CURIEs, `{GS1}{name}` in full. */
export const GS1 = 'https://gs1.org/voc/';

/**
 * The link types this resolver answers, in the order the linkset lists them; a type a product has
 * no link of is left out of its linkset (sustainabilityInfo, safetyInfo and masterData: battery
 * passports only).
 */
export const LINK_TYPES = ['defaultLink', 'defaultLinkMulti', 'pip', 'certificationInfo', 'sustainabilityInfo', 'safetyInfo', 'masterData'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export interface Link {
  href: string;
  title: string;
  type: 'text/html' | 'application/json' | 'application/vc+jwt';
  /** The page's language; absent on the JSON read form (its data is language-neutral). */
  hreflang?: string[];
}

export type Links = Record<LinkType, Link[]>;

/**
 * The links of the product's current passport version. Every target is an immutable page URL of
 * that version on the platform origin (lib/domain/page-urls.ts), also for brand-host products.
 *
 * - `gs1:defaultLink`: the e-label in the product's label language (`data.labelLanguage`), else
 *   English (one link, as the standard has it).
 * - `gs1:defaultLinkMulti`: the same page in every language, and the JSON read form; the
 *   resolver picks among them by Accept and Accept-Language when no linkType is asked for.
 * - `gs1:pip` (product information page): the e-label in every language, and the JSON read form.
 * - `gs1:certificationInfo`: the version's signed credential (application/vc+jwt, docs/credentials.md).
 * Every e-label link carries its `hreflang`: one link per language of the 24.
 *
 * A battery passport (docs/battery.md#the-public-page-json-and-links) has the same links, its page
 * in place of the e-label, and the version's public JSON of each aspect it has: labeling under
 * certificationInfo (declaration of conformity, labels), carbonFootprint, circularity and
 * supplyChainDueDiligence under sustainabilityInfo ("sustainability and recycling"),
 * materialComposition (hazardous substances) and circularity (extinguishing agents) under
 * safetyInfo, generalProductInformation and performanceAndDurability under masterData.
 */
export function productLinks(view: PublicView & { passport: NonNullable<PublicView['passport']> }, tenant: Tenant, origin: string, unit?: UnitRecord): Links {
  const version = view.passport.version;
  // A batch's or item's links lead to its own pages: the passport version with the record's version (lib/domain/unit.ts).
  const unitPage = unit && { gtin14: view.gtin, version, kind: unit.kind, value: unitValue(unit), unitVersion: unit.version };
  const page = (lang: string): Link => ({
    href: unitPage ? unitPageUrl(origin, tenant, unitPage, lang.toLowerCase()) : elabelPageUrl(origin, tenant, view.gtin, version, lang),
    title: `${view.name}: product information (${LANGUAGE_NAMES[lang as keyof typeof LANGUAGE_NAMES] ?? lang})`,
    type: 'text/html',
    hreflang: [lang],
  });
  const unitTitle = unit ? `; ${unit.kind === 'batch' ? `lot ${unit.lot ?? ''}` : `serial ${unit.serial ?? ''}`}, version ${unit.version}, ${unit.digest}` : '';
  const json: Link = {
    href: unitPage ? unitPageUrl(origin, tenant, unitPage, PASSPORT_JSON_SEGMENT) : passportJsonUrl(origin, tenant, view.gtin, version),
    // GS1's linkset schema allows no extension attribute on a link, so the version's digest
    // (docs/lifecycle.md#digest-chain), and the batch's or item's, are named in the title.
    title: `${view.name}: digital product passport (JSON), version ${version}${view.passport.digest ? `, ${view.passport.digest}` : ''}${unitTitle}`,
    type: 'application/json',
  };
  const pages = LANGUAGES.map(page);
  const credential: Link = {
    href: credentialJwtUrl(origin, tenant, view.gtin, version),
    title: `${view.name}: signed digital product passport (W3C Verifiable Credential)`,
    type: 'application/vc+jwt',
  };
  const links: Links = {
    defaultLink: [page(labelLanguage(view.passport))],
    defaultLinkMulti: [...pages, json],
    pip: [...pages, json],
    certificationInfo: [credential],
    sustainabilityInfo: [],
    safetyInfo: [],
    masterData: [],
  };
  if (isBatteryPassport(view.category, view.passport.data)) {
    addAspectLinks(links, view, tenant, origin);
    // Where a reader with credentials asks for the elements the public may not read (docs/access.md#reads).
    const dppId = dppIdOf({ tenant, gtin14: view.gtin, ...(unit ? { unit: { kind: unit.kind, value: unitValue(unit) } } : {}) });
    links.masterData.push({
      href: `${config().publicApiOrigin}/v1/dpps/${dppId}`,
      title: `${view.name}: battery passport with the elements of your access tier (legitimate interest, authorities; send your API key)`,
      type: 'application/json',
    });
  }
  return links;
}

/** The aspects in link titles. */
const ASPECT_TITLES: Readonly<Record<string, string>> = {
  generalProductInformation: 'general product information',
  carbonFootprint: 'carbon footprint',
  supplyChainDueDiligence: 'supply chain due diligence',
  materialComposition: 'material composition',
  circularity: 'circularity',
  labeling: 'labels and conformity',
  performanceAndDurability: 'performance and durability',
};

/** A battery passport version's aspect JSONs (lib/domain/battery/page-urls.ts), under the link types that fit them. */
function addAspectLinks(links: Links, view: PublicView & { passport: NonNullable<PublicView['passport']> }, tenant: Tenant, origin: string): void {
  const version = view.passport.version;
  const open = publicPassportData(view.category, view.passport.data) as Record<string, unknown>;
  const aspect = (name: string): Link[] =>
    Object.hasOwn(open, name) && ASPECT_NAMES.includes(name)
      ? [{ href: aspectJsonUrl(origin, tenant, view.gtin, version, name), title: `${view.name}: battery passport, ${ASPECT_TITLES[name] ?? name} (JSON), version ${version}`, type: 'application/json' }]
      : [];
  links.certificationInfo.push(...aspect('labeling'));
  links.sustainabilityInfo.push(...aspect('carbonFootprint'), ...aspect('circularity'), ...aspect('supplyChainDueDiligence'));
  links.safetyInfo.push(...aspect('materialComposition'), ...aspect('circularity'));
  links.masterData.push(...aspect('generalProductInformation'), ...aspect('performanceAndDurability'));
}

/** The product's own label language (passport data), or English. */
export function labelLanguage(passport: { data?: { labelLanguage?: unknown } } | undefined): Lang {
  const chosen = passport?.data?.labelLanguage;
  return isLang(chosen) ? chosen : DEFAULT_LANGUAGE;
}

/**
 * The backup copy of the current version's JSON read form (docs/backup.md#the-public-copy), or the
 * batch's or item's, served apart from the table and the API: undefined where the service keeps no
 * public copy.
 */
export function backupLink(view: PublicView & { passport: NonNullable<PublicView['passport']> }, tenant: Tenant, unit?: UnitRecord): Link | undefined {
  const origin = config().backupPublicOrigin;
  if (!origin) return undefined;
  return {
    href: unit
      ? unitBackupUrl(origin, tenant, view.gtin, unit.kind, unitValue(unit), unit.version)
      : passportBackupUrl(origin, tenant, view.gtin, view.passport.version),
    title: `${view.name}: backup copy of the digital product passport (JSON), version ${unit ? unit.version : view.passport.version}`,
    type: 'application/json',
  };
}

/** The IANA-registered relation `alternate` as a URI: the form of the IANA registry's own address. */
export const ALTERNATE = 'http://www.iana.org/assignments/relation/alternate';

/**
 * The RFC 9264 linkset in GS1's form: one link context object anchored at the Digital Link URI
 * as requested, the item's description, link relation types as full GS1 vocabulary URIs. The
 * backup copy, when given, is the IANA-registered relation `alternate` (RFC 8288), a substitute for
 * the same passport, written as a URI as GS1's resolver schema wants every relation (ALTERNATE).
 */
export function linkset(view: Pick<PublicView, 'name'>, anchor: string, links: Links, backup?: Link) {
  const context: Record<string, unknown> = { anchor, itemDescription: view.name };
  for (const type of LINK_TYPES) if (links[type].length > 0) context[`${GS1}${type}`] = links[type];
  if (backup) context[ALTERNATE] = [backup];
  return { linkset: [context] };
}

export type LinkTypeRequest =
  /** No linkType: the default link (by the request's Accept and Accept-Language). */
  | { kind: 'default' }
  /** `linkset` or `all`: the whole linkset. */
  | { kind: 'linkset' }
  /** One link type, by name; `known` is false for a type this resolver never has links of. */
  | { kind: 'type'; name: string; known: boolean }
  /** The IANA relation `alternate` the linkset lists for the backup copy (ALTERNATE, or its registered name). */
  | { kind: 'alternate' };

/**
 * Reads `?linkType=`: `linkset` and `all`, a GS1 CURIE (`gs1:pip`) or the full vocabulary URI
 * (`https://gs1.org/voc/pip`; `http:` too, as GS1 published it first), and every other relation the
 * linkset lists: the backup copy's `alternate`, as its URI (ALTERNATE, http or https) or its IANA
 * name (docs/resolver.md#link-types).
 */
export function parseLinkType(value: string | undefined): LinkTypeRequest {
  if (value === undefined || value === '') return { kind: 'default' };
  if (value === 'linkset' || value === 'all') return { kind: 'linkset' };
  if (value === 'alternate' || value === ALTERNATE || value === ALTERNATE.replace(/^http:/, 'https:')) return { kind: 'alternate' };
  const match = /^(?:gs1:|https?:\/\/gs1\.org\/voc\/)([A-Za-z]+)$/.exec(value);
  const name = match?.[1] ?? value;
  return { kind: 'type', name, known: match !== null && (LINK_TYPES as readonly string[]).includes(name) };
}

const LINKSET_TYPE = 'application/linkset+json';

/** Whether the request's Accept prefers the linkset (RFC 9264 §7.1) over a page or the JSON form. */
export function wantsLinkset(accept: string | undefined): boolean {
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(['text/html', 'application/json', LINKSET_TYPE]) === LINKSET_TYPE;
}

/**
 * The best link of one type for a request: first the media type the Accept header prefers among
 * the type's links (HTML when it says nothing or accepts anything), then the language
 * Accept-Language prefers among the links of that media type (the product's label language
 * `fallback` when none is acceptable, then English). Undefined when the type has no links.
 */
export function bestLink(
  candidates: readonly Link[],
  accept: string | undefined,
  acceptLanguage: string | undefined,
  fallback: Lang = DEFAULT_LANGUAGE,
): Link | undefined {
  if (candidates.length === 0) return undefined;
  const offered = [...new Set(candidates.map((link) => link.type))].sort((a, b) => (a === 'text/html' ? -1 : b === 'text/html' ? 1 : 0));
  const type = (accept ? new Negotiator({ headers: { accept } }).mediaType(offered) : undefined) ?? offered[0];
  const ofType = candidates.filter((link) => link.type === type);
  const lang = negotiateLanguage(acceptLanguage, fallback);
  return (
    ofType.find((link) => link.hreflang?.includes(lang)) ??
    ofType.find((link) => link.hreflang?.includes(fallback)) ??
    ofType.find((link) => link.hreflang?.includes(DEFAULT_LANGUAGE)) ??
    ofType[0]
  );
}

/**
 * `/.well-known/gs1resolver`: what this resolver supports. `resolverRoot` is the origin the
 * request came to: the platform's, or a brand's verified domain (docs/resolver.md).
 */
export function resolverDescription(resolverRoot: string, brandHost: boolean) {
  return {
    name: 'Product Passport resolver',
    resolverRoot: resolverRoot.replace(/\/+$/, ''),
    supportedPrimaryKeys: ['01'],
    supportedLinkType: [{ namespace: GS1, prefix: 'gs1:' }],
    linkTypeDefaultCanBeLinkset: false,
    jsonLdContextLocation: 'https://ref.gs1.org/standards/resolver/1.2.0/linkset-context',
    supportedContextValuesEnumerated: [],
    supportedLanguages: [...LANGUAGES],
    pathStructure: brandHost
      ? '/01/{gtin}[/22/{cpv}][/10/{lot}][/21/{serial}]'
      : '/{organization}/{environment}/01/{gtin}[/22/{cpv}][/10/{lot}][/21/{serial}]',
  };
}
