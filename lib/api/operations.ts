import { ACCESS_PATH_PARAMETERS, accessOperations } from './operations-access.ts';
import { HANDOVER_PATH_PARAMETERS, handoverOperations } from './operations-handovers.ts';
import { TRANSFER_PATH_PARAMETERS, transferOperations } from './operations-transfers.ts';
import { inspectOperations } from './operations-inspect.ts';
import { registryFileOperations } from './operations-registry-files.ts';
import * as z from 'zod';
import { analyticsQuerySchema, analyticsSchema, DEFAULT_WINDOW_DAYS, MAX_WINDOW_DAYS } from '../domain/analytics.ts';
import { createApiKeySchema, listApiKeysQuerySchema } from '../domain/api-key.ts';
import { cursorQuerySchema } from '../domain/pagination.ts';
import { importJobSchema, importJobSummarySchema, importListQuerySchema, importQuerySchema, queuedImportSchema } from '../domain/imports.ts';
import { exportQuerySchema, MAX_EXPORT_ROWS } from '../domain/export.ts';
import { ARCHIVE_URL_SECONDS, archiveSchema, MAX_ARCHIVE_LINES, MAX_ARCHIVE_SIGNATURES } from '../services/archive-export.ts';
import { createdPassportSchema, createPassportSchema, passportVersionSchema, passportSchema } from '../domain/passport.ts';
import { completenessQuerySchema, completenessReportSchema, publishQuerySchema, putItemQuerySchema } from '../domain/passport-completeness.ts';
import { publicationRegistrySchema } from '../domain/registry/publish-check.ts';
import { ASPECT_JSON_SEGMENTS } from '../domain/battery/page-urls.ts';
import {
  createdProductSchema,
  createProductSchema,
  cursorPageSchema,
  GTIN_DIGITS_PATTERN,
  MAX_OFFSET,
  offsetPageSchema,
  productListSchema,
  productSearchSchema,
  productSchema,
  qrQuerySchema,
  updateProductSchema,
  withdrawProductSchema,
} from '../domain/product.ts';
import { draftInputSchema, draftSchema, passportAtQuerySchema } from '../domain/draft.ts';
import { eventSchema } from '../domain/events.ts';
import { listEventsQuerySchema } from '../domain/event-query.ts';
import { PASSPORT_JSON_SEGMENT } from '../domain/page-urls.ts';
import { MAX_COMPRESSED_LENGTH } from '../domain/digital-link-compression.ts';
import { LANGUAGES } from '../domain/labelling/languages.ts';
import { calculatedNutritionSchema, calculateNutritionSchema, vocabularyListSchema } from '../domain/labelling/schemas.ts';
import { LEGAL_TERM_KEYS, labelTermSchema, listLabelTermsQuerySchema, MAX_TERM_TEXT, putLabelTermSchema } from '../domain/labelling-term.ts';
import { loginQuerySchema, switchSessionSchema } from '../domain/session.ts';
import { ENVIRONMENTS } from '../domain/tenant.ts';
import { createSupplierSchema, supplierSchema } from '../domain/supplier.ts';
import { createEndpointSchema, updateEndpointSchema } from '../domain/webhook.ts';
import {
  createdSubscriptionSchema,
  createSubscriptionSchema,
  deliverySchema,
  listDeliveriesQuerySchema,
  listSubscriptionsQuerySchema,
  MAX_EVENT_SUBSCRIPTIONS,
  subscriptionSchema,
  updateSubscriptionSchema,
} from '../domain/event-subscription.ts';
import { createDomainSchema, domainListSchema, domainSchema, updateDomainSchema } from '../domain/domain.ts';
import {
  batchListSchema,
  batchSchema,
  itemExportQuerySchema,
  itemListSchema,
  itemSchema,
  lineageSchema,
  publicLineageSchema,
  MAX_ITEM_EXPORT_ROWS,
  putBatchDocSchema,
  putItemDocSchema,
  unitAtQuerySchema,
  unitListQuerySchema,
  unitPatchDocSchema,
} from '../domain/units.ts';
import { UNIT_PARAM, type UnitKind } from '../domain/unit.ts';
import {
  apiKeySchema,
  createdApiKeySchema,
  cursorPage,
  dataList,
  DID_JSON_MEDIA_TYPE,
  ingestResultSchema,
  revokedApiKeySchema,
  sessionSchema,
  webhookEndpointSchema,
} from './schemas.ts';
import { ROUTES } from './routes.ts';
import { REGISTRY_PATH_PARAMETERS, registryOperations } from './operations-registry.ts';
import { signOffOperations } from './operations-sign-offs.ts';

/**
 * What the OpenAPI document says of each route of the route table beyond its method, path, auth
 * and scopes: a summary, the query and body schemas the handler validates with, and the answers.
 * The schemas are the very ones the handlers use, so the document cannot drift from the code.
 */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  /** Further representations of the same answer (content negotiation, or the URL), by media type. */
  alternatives?: Readonly<Record<string, z.ZodType>>;
  /** Response headers by name. */
  headers?: Readonly<Record<string, HeaderDoc>>;
}

export interface HeaderDoc {
  description: string;
  required?: boolean;
  schema: z.ZodType;
}

export interface OperationDoc {
  summary: string;
  description: string;
  tag: string;
  /** OpenAPI extensions of the operation (rules across parameters, such as a date window). */
  extensions?: Record<`x-${string}`, unknown>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A body that is not JSON (a file upload): its schema by media type. */
  bodyContent?: Readonly<Record<string, z.ZodType>>;
  /** Success answers by status. */
  responses: Record<number, Answer>;
  /** Error statuses the operation answers with, each with the error object. */
  errors: readonly number[];
  /** Representations of its errors besides the error object (application/json), by media type: the resolver's friendly pages. */
  errorAlternatives?: Readonly<Record<string, z.ZodType>>;
  /** Headers every error answer carries. */
  errorHeaders?: Readonly<Record<string, HeaderDoc>>;
}

const API_KEY_ERRORS = [401, 403, 429] as const;
const SESSION_ERRORS = [401, 403, 429] as const; // 429: a session over its user's rate limit (lib/auth/session-rate-limit.ts)

/**
 * `GET /v1/products` takes two forms the handler parses with offsetPageSchema and cursorPageSchema
 * (and q with productSearchSchema): their fields, as one query. offset and starting_after exclude
 * each other, which the document states in both descriptions and in `x-mutually-exclusive-with`.
 */
const listProductsQuery = z.object({
  limit: offsetPageSchema.shape.limit.describe('Page size, 1 to 100; default 20 (offset form) or 25 (cursor form, with starting_after)'),
  offset: offsetPageSchema.shape.offset.meta({
    description: `Offset form: items to skip, 0 to ${MAX_OFFSET.toLocaleString('en')}. Cannot be combined with starting_after (422).`,
    'x-mutually-exclusive-with': ['starting_after'],
  }),
  starting_after: cursorPageSchema.shape.starting_after.optional().meta({
    description: 'Cursor form: the productId of the last item of the previous page. Cannot be combined with offset (422).',
    'x-mutually-exclusive-with': ['offset'],
  }),
  q: productSearchSchema
    .optional()
    .describe('Search: products whose name contains q (any letter case) or whose GTIN starts with q (as GTIN-14, -13, -12 or -8); at least one character other than white space'),
});

/** The cursor query of the passport and supplier lists, as their handlers build it. */
const passportsQuery = cursorQuerySchema('passportId');
const versionsQuery = passportsQuery.extend({
  starting_after: passportsQuery.shape.starting_after.meta({
    description: 'Cursor: the passportId of the last item of the previous page; it must be a version of this product (otherwise 422)',
    'x-refers-to': 'passportId',
  }),
});
const suppliersQuery = cursorQuerySchema('supplierId');
const listSuppliersQuery = suppliersQuery.extend({
  starting_after: suppliersQuery.shape.starting_after.describe('Cursor: the supplierId of the last item of the previous page'),
});

/** The analytics window: start and end (UTC days, inclusive), and how they bound each other. */
const analyticsQuery = analyticsQuerySchema.extend({
  start: analyticsQuerySchema.shape.start.describe(
    `First day of the window (UTC, inclusive), YYYY-MM-DD; default ${DEFAULT_WINDOW_DAYS} days before end. Not after end, and at most ${MAX_WINDOW_DAYS} days before it (otherwise 422).`,
  ),
  end: analyticsQuerySchema.shape.end.describe('Last day of the window (UTC, inclusive), YYYY-MM-DD; default today. Not before start (otherwise 422).'),
  granularity: analyticsQuerySchema.shape.granularity.describe('Buckets of scansByDay: day, week (from Monday) or month'),
});
const ANALYTICS_WINDOW = {
  'x-date-window': {
    start: 'start',
    end: 'end',
    maxDays: MAX_WINDOW_DAYS,
    defaultEnd: 'today',
    defaultDays: DEFAULT_WINDOW_DAYS,
    description: `end is not before start, and the window (both days included) spans at most ${MAX_WINDOW_DAYS} days; end defaults to today (UTC), start to ${DEFAULT_WINDOW_DAYS} days before end`,
  },
} as const;

/** Tags, in the order the reference shows them, each with its description. */
export const TAGS: Readonly<Record<string, string>> = {
  Products: 'Products registered by GTIN, each with a GS1 Digital Link QR code that never changes',
  Passports: "Versioned passports: a product's ingredients, nutrition, allergens, origin and producers",
  Suppliers: 'Economic operators (producers, bottlers, importers, …) named in passports',
  Imports: 'Bulk import of products and passports from CSV, Excel or JSON Lines files (docs/imports.md)',
  Analytics: 'Aggregate scan counts per product: countries, devices, referrers, days; nothing personal',
  Events: 'The append-only log of every change: what changed, who changed it, in which request (docs/lifecycle.md#event-log)',
  'Event subscriptions': 'Outbound webhooks: events delivered to your URL, signed per Standard Webhooks, retried, with a delivery log (docs/webhooks-outbound.md)',
  Resolver: 'The public GS1 Digital Link resolver behind every printed QR code (no authentication)',
  Access: 'Who reads which elements of a passport: access grants to other organizations, authorities, and the EN 18222 reads by tier (docs/access.md)',
  Registry: "The EU registry of passports (Regulation (EU) 2024/1781 Art. 13): the organization's registry settings, its registrations and their status (docs/registry.md)",
  Credentials: 'Signed passports: each published version as a W3C Verifiable Credential (VC-JOSE, application/vc+jwt), verifiable through did:web, with a revocation status list (docs/credentials.md)',
  Webhooks: "Signed deliveries from a product-information system, and the organization's webhook endpoints",
  Labelling: "The ingredient vocabulary of the e-label in the 24 EU languages, the energy calculator of the nutrition declaration, and the organization's corrections of the legal terms (docs/labelling.md)",
  Reference: 'This OpenAPI document and its rendered reference',
  Service: 'Whether the service can serve requests now: its dependencies answer (docs/api.md#when-a-dependency-is-down)',
  'Dashboard session': 'Sign-in to the dashboard (OpenID Connect) and its session cookie',
  'API keys': "The organization's API keys, managed from a dashboard session",
  Domains: "The organization's own resolver domains (such as id.brand.example), verified by a DNS TXT record, managed from a dashboard session",
};

/** The e-label's languages: the 24 official EU languages (lib/domain/labelling/languages.ts). */
const LANGUAGE_CODES = LANGUAGES;

/** A key qualifier's value: the URL-safe part of GS1 character set 82 (a dot alone would be a dot segment). */
const qualifierValue = (max: number) => z.string().regex(new RegExp(`^[0-9A-Za-z_-]{1,${max}}$`));

/** Path parameters by name: what each holds. */
export const PATH_PARAMETERS: Readonly<Record<string, { description: string; schema: z.ZodType }>> = {
  productId: { description: 'The productId (a UUID) of a product of the organization', schema: z.string() },
  supplierId: { description: 'The supplierId of a supplier of the organization', schema: z.string() },
  endpointId: { description: 'The id of a webhook endpoint of the organization', schema: z.string() },
  keyId: { description: 'The id of an API key of the organization', schema: z.string() },
  domainId: { description: 'The id (dom_…) of a domain of the organization', schema: z.string() },
  importId: { description: 'The id (imp_…) of an import job of the organization', schema: z.string() },
  eventId: { description: 'The id (evt_…) of an event of the organization', schema: z.string() },
  subscriptionId: { description: 'The id (sub_…) of an event subscription of the organization', schema: z.string() },
  deliveryId: { description: 'The id (del_…) of a delivery of the subscription', schema: z.string() },
  orgId: { description: 'The organization, as printed in the qrCodeUrl', schema: z.string() },
  environment: { description: 'The environment, as printed in the qrCodeUrl', schema: z.enum(ENVIRONMENTS) },
  compressed: {
    description: `A compressed GS1 Digital Link: base64url, at most ${MAX_COMPRESSED_LENGTH} characters, answered as the URI it decompresses to (docs/resolver.md#compressed-uris)`,
    schema: z.string().meta({ pattern: `^[A-Za-z0-9_-]{1,${MAX_COMPRESSED_LENGTH}}$` }),
  },
  gtin: {
    description: 'The GTIN (8, 12, 13 or 14 digits, GS1 mod-10 check digit last); qrCodeUrl prints it as GTIN-14',
    schema: z.string().meta({ pattern: GTIN_DIGITS_PATTERN.source, 'x-check-digit': 'GS1 mod-10' }),
  },
  qualifiers: {
    description:
      'GS1 key qualifiers as /{AI}/{value} pairs: 22, then 10 (lot), then 21 (serial), each at most once and in that order, or 235 alone; values are 1 to 20 characters (28 for 235) of GS1 character set 82. The pattern gives the URL-safe part of that set.',
    schema: z.string().meta({
      pattern: '^(?:22/[0-9A-Za-z_-]{1,20}(?:/10/[0-9A-Za-z_-]{1,20})?(?:/21/[0-9A-Za-z_-]{1,20})?|10/[0-9A-Za-z_-]{1,20}(?:/21/[0-9A-Za-z_-]{1,20})?|21/[0-9A-Za-z_-]{1,20}|235/[0-9A-Za-z_-]{1,28})$',
    }),
  },
  passportId: { description: 'The passportId (ps_…) of a published version of the product', schema: z.string() },
  lang: { description: `A language of the e-label: ${LANGUAGES.join(', ')}`, schema: z.enum(LANGUAGES) },
  termKey: {
    description: 'A key of the e-label texts that is a legal term (has a source) in that language; an interface text is 422',
    schema: z.enum(LEGAL_TERM_KEYS as [string, ...string[]]),
  },
  list: { description: 'A status list of the environment: 1, 2, … (131,072 products each)', schema: z.string().regex(/^[1-9]\d{0,5}$/) },
  asset: { description: 'A file of the reference page: swagger-ui.css, swagger-ui-bundle.js or docs.js', schema: z.string() },
  // The key qualifiers, each its own path segment (see PATH_EXPANSIONS, lib/api/document-paths.ts).
  cpv: { description: 'AI 22, consumer product variant: 1 to 20 characters of GS1 character set 82 (the pattern gives its URL-safe part)', schema: qualifierValue(20) },
  lot: { description: 'AI 10, batch or lot number: 1 to 20 characters of GS1 character set 82 (the pattern gives its URL-safe part)', schema: qualifierValue(20) },
  serial: { description: 'AI 21, serial number: 1 to 20 characters of GS1 character set 82 (the pattern gives its URL-safe part)', schema: qualifierValue(20) },
  tpx: { description: 'AI 235, third-party controlled serialised extension: 1 to 28 characters of GS1 character set 82 (the pattern gives its URL-safe part)', schema: qualifierValue(28) },
  // A batch's or item's immutable pages (lib/domain/unit.ts).
  ai: { description: 'The key qualifier of the record: 10 (a batch, by its lot) or 21 (an item, by its serial)', schema: z.enum(['10', '21']) },
  unit: { description: 'The lot (ai 10) or serial (ai 21), percent-encoded as the canonical Digital Link writes it (the pattern gives its URL-safe part)', schema: qualifierValue(20) },
  ...HANDOVER_PATH_PARAMETERS,
  ...TRANSFER_PATH_PARAMETERS,
  ...ACCESS_PATH_PARAMETERS,
  ...REGISTRY_PATH_PARAMETERS,
  unitVersion: { description: "A version of the batch or item: 1, 2, … (no leading zero)", schema: z.string().regex(/^[1-9]\d{0,8}$/) },
  // The immutable pages of a version (lib/domain/page-urls.ts).
  version: { description: 'A published passport version: 1, 2, … (no leading zero)', schema: z.string().regex(/^[1-9]\d{0,8}$/) },
  page: {
    description: `The e-label page in one language (${LANGUAGE_CODES.join(', ')}), or passport.json for the version's JSON read form; for a battery passport the page in that language shows its public elements, and {aspect}.json (${ASPECT_JSON_SEGMENTS.join(', ')}) holds one aspect's public elements (docs/battery.md#the-public-page-json-and-links)`,
    schema: z.enum([...LANGUAGE_CODES, PASSPORT_JSON_SEGMENT, ...ASPECT_JSON_SEGMENTS]),
  },
};

const html = (description: string): Answer => ({ description, contentType: 'text/html', schema: z.string() });

// ---------------------------------------------------------------------------------------------
// The public resolver and the version pages (docs/api.md#the-public-resolver-and-its-e-label-page).
// Their entries are made for the resolver routes the route table has, by the shape of each path.

const linkSchema = z.object({
  href: z.url(),
  title: z.string(),
  type: z.string().describe('The media type of the target: text/html or application/json'),
  hreflang: z.array(z.string()).optional().describe('The language of the target page'),
});

/** The RFC 9264 linkset in GS1's form (functions/resolver/linkset.ts). */
export const linksetSchema = z
  .object({
    linkset: z
      .array(
        z
          .object({ anchor: z.url().describe('The Digital Link URI as requested'), itemDescription: z.string().describe("The product's name") })
          .catchall(z.array(linkSchema))
          .describe('One link context: besides anchor and itemDescription, each link type as a full GS1 vocabulary URI (https://gs1.org/voc/pip) with its links'),
      )
      .min(1),
  })
  .meta({ id: 'Linkset', description: 'RFC 9264 linkset (application/linkset+json) of a GS1 Digital Link' });

const header = (description: string, schema: z.ZodType = z.string(), required = true): HeaderDoc => ({ description, schema, required });
const CACHE_NONE = header('no-store: a resolution always reads the current version', z.literal('no-store'));
const RESOLUTION_HEADERS = {
  Link: header(
    'The linkset of this Digital Link: <{canonical URI}?linkType=linkset>; rel="linkset"; type="application/linkset+json", then <{canonical URI}>; rel="canonical" when the URI requested is not the canonical one (a 13-digit GTIN, a compressed link); a compressed link\'s uncompressed URI comes first, rel="owl:sameAs"',
  ),
  Vary: header('Accept, Accept-Language: the link chosen depends on both'),
  'Cache-Control': CACHE_NONE,
};
const errorPage = { 'text/html': z.string().describe('A page saying what is wrong, in the language Accept-Language prefers') };

function resolution(method: 'GET' | 'HEAD' | 'OPTIONS', brand: boolean, qualified: boolean, compressed = false): OperationDoc {
  const where = brand
    ? "On a brand's verified domain (the Host header names it; an unknown or unverified host is 404), the organization's live product."
    : 'The organization and environment are in the path, as printed.';
  const what = compressed
    ? ' A compressed Digital Link (GS1 Digital Link compression) is answered as the URI it decompresses to, at once, its uncompressed URI first in Link as rel="owl:sameAs": its data attributes and other keys come before the request\'s own query string. A segment that is no compressed GTIN link (not base64url, longer than the limit, not decompressible, another primary key, a bad check digit) is 404.'
    : qualified
      ? ' Key qualifiers are checked (400 when malformed, misordered or unknown). A registered serial (21) answers its item, a registered lot (10) its batch, with their own pages (docs/resolver.md#batches-and-items); a withdrawn one is 410. An unregistered serial or lot is 404 when the product is passported by item (or, for a lot, by batch), and walks up to the GTIN otherwise.'
      : '';
  if (method === 'OPTIONS') {
    return { summary: 'CORS preflight', description: `The resolver is open to every origin (CORS). ${where}`, tag: 'Resolver', responses: { 204: { description: 'CORS open to every origin' } }, errors: [403] };
  }
  const head = method === 'HEAD';
  return {
    summary: head
      ? 'Headers of a resolution'
      : `Resolve a ${compressed ? 'compressed ' : ''}GS1 Digital Link${qualified ? ' with key qualifiers' : ''}${brand ? " on a brand's own domain" : compressed ? '' : ' (the printed QR code)'}`,
    description: [
      head
        ? 'The headers GET would answer with, without a body; no scan is counted.'
        : 'What a phone opens when it scans the QR code (GS1-Conformant Resolver standard 1.2, docs/resolver.md). Without linkType, a 307 to the default link: the e-label page of the current passport version in the language Accept-Language prefers, or its JSON read form for Accept: application/json. ?linkType=gs1:pip (or the full URI https://gs1.org/voc/pip) a 307 to the best link of that type (404 when there is none); linkType=linkset or all, or Accept: application/linkset+json, the linkset itself (200). The query string other than linkType is passed on to the target. Each GET that resolves counts one scan (no personal data kept); following the redirect counts nothing. A product its producer withdrew answers 410 Gone to every request, the linkset too: a page saying so in the visitor’s language, or the error object (docs/lifecycle.md#withdrawal).',
      where,
      what,
    ]
      .join(' ')
      .trim(),
    tag: 'Resolver',
    query: z.object({
      linkType: z
        .string()
        .optional()
        .meta({
          description:
            'A GS1 link type as a CURIE (gs1:pip) or full URI (https://gs1.org/voc/pip); linkset or all for the linkset. A link type the product has no link of is 404. Other query parameters are passed on to the target.',
          // The value must name a link the product has (or be linkset/all): stored state, not a schema rule.
          'x-refers-to': 'linkType',
        }),
    }),
    responses: {
      200: {
        description: 'The linkset (linkType=linkset or all, or Accept: application/linkset+json); a scan is counted',
        ...(head ? {} : { contentType: 'application/linkset+json', schema: linksetSchema }),
        headers: {
          Link: header('The linkset link, and the GS1 JSON-LD context: <https://ref.gs1.org/standards/resolver/1.2.0/linkset-context>; rel="http://www.w3.org/ns/json-ld#context"'),
          Vary: RESOLUTION_HEADERS.Vary,
          'Cache-Control': CACHE_NONE,
        },
      },
      307: {
        description: 'To the chosen link: an immutable page of the current passport version (/{orgId}/{environment}/p/{gtin}/{version}/{lang} or …/passport.json on the platform origin); a scan is counted',
        headers: {
          Location: header("The chosen link's URL, with the request's query string other than linkType", z.url()),
          ...RESOLUTION_HEADERS,
        },
      },
    },
    errors: [400, 403, 404, 410],
    errorAlternatives: errorPage,
    errorHeaders: { Vary: RESOLUTION_HEADERS.Vary, 'Cache-Control': CACHE_NONE },
  };
}

const IMMUTABLE = header('public, max-age=31536000, immutable: a published version never changes, and CloudFront serves every repeat from its cache');
const NOT_FOUND_CACHE = header('public, max-age=60: a page that is not there may be published later');
/** A version page of a product transferred to another organization (functions/resolver/moved.ts, docs/transfers.md#the-printed-qr-codes). */
const MOVED_PAGE = {
  description: "The product was transferred to another organization (docs/transfers.md#the-printed-qr-codes): the same page under its new owner's /{orgId}/{environment}/p/… path",
  headers: { Location: header("The page's path under the new owner's organization", z.string()), 'Cache-Control': header('public, max-age=3600: the product may move on') },
};
/** An e-label page in a language its version does not offer (functions/resolver/pages.ts, docs/labelling.md#sign-off). */
const LANGUAGE_NOT_OFFERED = {
  description:
    "The version does not offer this language (its organization offers only the languages its compliance officer signed off, docs/labelling.md#sign-off): the page in the language it falls back to, the product's label language, then English, then the first offered",
  headers: { Location: header('That page, relative to this one: its language code', z.string()), 'Cache-Control': IMMUTABLE },
};

function versionPage(method: 'GET' | 'HEAD'): OperationDoc {
  const head = method === 'HEAD';
  return {
    summary: head ? 'Headers of a version page' : "A passport version's immutable page: the e-label in one language, or the JSON read form",
    description: `${head ? 'The headers GET would answer with, without a body. ' : ''}The pages the resolver redirects to: {page} is a language for the e-label page (text/html: no script, no cookie, nothing from another origin, a Content-Security-Policy naming its stylesheet's hash) or passport.json for the read form (application/json). A battery passport's page and JSON hold only its public elements (Regulation (EU) 2023/1542 Art. 77(2)), and {aspect}.json one aspect of them (docs/battery.md#the-public-page-json-and-links). A version never changes, so the answer is cacheable for a year; older versions stay readable. No scan is counted (the resolver counted it). An unknown version or language is 404, cacheable for a minute.`,
    tag: 'Resolver',
    responses: {
      200: {
        description: 'The version: the e-label page ({page} a language) or the JSON read form ({page} passport.json)',
        ...(head ? {} : { contentType: 'text/html', schema: z.string().describe('The e-label page'), alternatives: { 'application/json': passportSchema } }),
        headers: {
          'Cache-Control': IMMUTABLE,
          'Content-Language': header('The language of the e-label page (text/html only)', z.string(), false),
        },
      },
      301: LANGUAGE_NOT_OFFERED,
      308: MOVED_PAGE,
    },
    errors: [403, 404],
    errorAlternatives: { 'text/html': z.string().describe('A page saying the version is not available, in the language of the URL (English for passport.json and unknown languages)') },
    errorHeaders: { 'Cache-Control': NOT_FOUND_CACHE },
  };
}

/** A record's page as its JSON form holds it: the passport's read form with the batch or item beside it (functions/resolver/unit-pages.ts). */
const unitRecordSchema = z.object({
  serial: z.string().optional().describe('An item\'s serial'),
  lot: z.string().nullable(),
  status: z.string(),
  data: z.record(z.string(), z.unknown()).describe("The record's data as the public may read it (a battery item's: none yet)"),
  version: z.int().min(1),
  digest: z.string(),
  previousDigest: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  lineage: publicLineageSchema.optional().describe("A battery's second-life links: the other passports only (docs/battery.md#second-life)"),
});
export const unitPassportSchema = passportSchema
  .extend({
    serial: z.string().optional().describe('The item\'s serial (an item\'s page)'),
    lot: z.string().nullable().describe('The batch\'s lot, or the lot the item names'),
    item: unitRecordSchema.optional().describe('The item (an item\'s page)'),
    batch: unitRecordSchema.optional().describe('The batch (a batch\'s page)'),
  })
  .meta({ id: 'UnitPassport', description: "A batch's or item's passport: the passport version with the record beside it" });

function unitPage(method: 'GET' | 'HEAD'): OperationDoc {
  const head = method === 'HEAD';
  return {
    summary: head ? "Headers of a batch's or item's page" : "A batch's or item's immutable page: the e-label with its lot and serial, or the JSON form",
    description: `${head ? 'The headers GET would answer with, without a body. ' : ''}The pages the resolver redirects a scan of a registered lot or serial to (docs/resolver.md#batches-and-items): the passport version {version} with the record's version {unitVersion}. {page} is a language for the e-label page, which shows the product's passport with the record's facts in place of the model's (a wine lot's alcoholic strength) and its lot and serial as GS1 prints them ((10) … (21) …), or passport.json for the read form with serial, lot and the record. Both versions never change, so the answer is cacheable for a year. No scan is counted. An unknown version, record or language is 404, cacheable for a minute.`,
    tag: 'Resolver',
    responses: {
      200: {
        description: 'The page ({page} a language) or the JSON form ({page} passport.json)',
        ...(head ? {} : { contentType: 'text/html', schema: z.string().describe('The e-label page'), alternatives: { 'application/json': unitPassportSchema } }),
        headers: { 'Cache-Control': IMMUTABLE, 'Content-Language': header('The language of the e-label page (text/html only)', z.string(), false) },
      },
      301: LANGUAGE_NOT_OFFERED,
      308: MOVED_PAGE,
    },
    errors: [403, 404],
    errorAlternatives: { 'text/html': z.string().describe('A page saying the page is not available, in the language of the URL (English for passport.json)') },
    errorHeaders: { 'Cache-Control': NOT_FOUND_CACHE },
  };
}

/** The operations of a product's batches or items (docs/api.md#batches-and-items). */
function unitOperations(kind: UnitKind): Record<string, OperationDoc> {
  const [collection, noun] = kind === 'batch' ? (['batches', 'batch'] as const) : (['items', 'item'] as const);
  const param = UNIT_PARAM[kind];
  const base = `/v1/products/{productId}/${collection}`;
  const schema = kind === 'batch' ? batchSchema : itemSchema;
  const putSchema =
    kind === 'batch'
      ? batchSchema.extend({ registry: publicationRegistrySchema.optional() })
      : itemSchema.extend({
          registry: publicationRegistrySchema.optional(),
          completeness: completenessReportSchema
            .pick({ asOf: true, batteryCategory: true, level: true, complete: true, missingMandatory: true, elements: true })
            .optional()
            .describe("A battery's passport (the model's current version with the battery's data laid over it) as judged at registration on asOf: nothing mandatory that day is missing, or the PUT is 422 listing every missing element in params (docs/battery.md#the-individual-battery)"),
        });
  const events = `Writes ${noun}.created for a new ${noun}, ${noun}.withdrawn when its status becomes withdrawn, ${noun}.updated for any other change; nothing when nothing changes.`;
  const badValue = `A ${param} that is not 1 to 20 characters of GS1 character set 82, or is . or .. alone, is 422 naming ${param}.`;
  const race = `Written on the condition that the ${noun} is still the version read: a concurrent write (another call, an import, a handover) makes it read and decide again, and 409 conflict when it lost five times (nothing changed; send it again).`;
  return {
    [`GET ${base}`]: {
      summary: `List a product's ${collection}`,
      description: `The product's ${collection} in ${param} order (byte order of the ${param}), in cursor pages.`,
      tag: 'Products',
      query: unitListQuerySchema(kind),
      responses: { 200: { description: `A page of ${collection}`, schema: kind === 'batch' ? batchListSchema : itemListSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 422],
    },
    [`PUT ${base}/{${param}}`]: {
      summary: `Register or replace a ${noun}`,
      description: `Creates the ${noun} (201) or replaces what it holds (200): ${kind === 'item' ? 'its lot, ' : ''}its status (active when absent) and its data, checked against the product's category (a wine: bottling date and analysis; others: an open object within bounds), a 422 naming the field. Every change is the next version with its digest; a PUT that changes nothing writes nothing. ${race} ${badValue} ${events}`,
      tag: 'Products',
      body: kind === 'batch' ? putBatchDocSchema : putItemDocSchema,
      // A battery item is judged at registration (docs/battery.md#the-individual-battery): asOf, and the answer's completeness.
      ...(kind === 'item' ? { query: putItemQuerySchema } : {}),
      responses: {
        201: { description: `Registered: the ${noun}`, schema: putSchema, headers: { Location: header(`The ${noun}`) } },
        200: { description: `Replaced (or unchanged): the ${noun}`, schema: putSchema },
      },
      errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
    },
    [`GET ${base}/{${param}}`]: {
      summary: `Get a ${noun}`,
      description: `The ${noun} as it is now; with at (an ISO 8601 instant), the version that was current then (404, param at, before its first version). ${badValue} An unregistered ${param} is 404.`,
      tag: 'Products',
      query: unitAtQuerySchema,
      responses: { 200: { description: `The ${noun}`, schema } },
      errors: [400, ...API_KEY_ERRORS, 404, 422],
    },
    [`PATCH ${base}/{${param}}`]: {
      summary: `Merge a patch into a ${noun}`,
      description: `An RFC 7396 JSON Merge Patch of the ${noun}'s own document (${kind === 'item' ? 'lot, ' : ''}status, data), sent as application/merge-patch+json (415 otherwise, after the ${noun} is found): members replace, null removes (status cannot be removed), objects merge, arrays replace whole. The result is checked as a whole (422 names the field). ${race} ${events}`,
      tag: 'Products',
      bodyContent: { 'application/merge-patch+json': unitPatchDocSchema(kind) },
      responses: { 200: { description: `The ${noun} after the patch`, schema } },
      errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 415, 422],
    },
    [`GET ${base}/{${param}}/qr`]: {
      summary: `A ${noun}'s QR code`,
      description: `The QR code of the ${noun}'s digitalLink as SVG, drawn as the product's (size pixels wide, margin modules of quiet zone). An unregistered ${param} is 404.`,
      tag: 'Products',
      query: qrQuerySchema,
      responses: { 200: { description: `An SVG QR code of the ${noun}'s Digital Link`, contentType: 'image/svg+xml', schema: z.string() } },
      errors: [400, ...API_KEY_ERRORS, 404, 422],
    },
    ...(kind === 'item'
      ? {
          'GET /v1/exports/items': {
            summary: `Export a product's items with their Digital Links`,
            description: `One page of the product's items in serial order, for a label printer: serial, lot, status, digitalLink and the data.* columns of an items file, so that a CSV page imports back unchanged (docs/import-export.md#items). At most ${MAX_ITEM_EXPORT_ROWS} rows a page; the Link header (rel="next") gives the next page. An unknown product is 404.`,
            tag: 'Products',
            query: itemExportQuerySchema,
            responses: {
              200: {
                description: 'A page of the export',
                contentType: 'text/csv',
                schema: z.string().describe('CSV (RFC 4180, CRLF): the header row, then one row an item'),
                alternatives: { 'application/x-ndjson': z.string().describe('One JSON object a line: the non-empty cells of a row by column header') },
                headers: {
                  'Content-Disposition': header('attachment; filename="items-{gtin14}.csv" (or .ndjson)'),
                  Link: header('The next page: </v1/exports/items?productId=…&format=…&limit=…&starting_after={serial}>; rel="next". Absent on the last page.', z.string(), false),
                },
              },
            },
            errors: [400, ...API_KEY_ERRORS, 404, 422],
          },
        }
      : {}),
  };
}

const JWT_SCHEMA = z.string().describe('A compact JWS (VC-JOSE): base64url header, payload (the credential) and ES256 signature, dot-separated');
const PUBLIC_NOT_FOUND = { 'Cache-Control': header('public, max-age=60: it may be published later') };

/** Signed passports (docs/credentials.md). */
function credentialOperations(): Record<string, OperationDoc> {
  return {
    'GET /v1/products/{productId}/passports/{passportId}/credential': {
      summary: "A passport version's signed credential",
      description:
        'The version as a W3C Verifiable Credential 2.0 (UNTP Digital Product Passport) secured with VC-JOSE: a compact JWS whose header names the signing key as {did}#{keyId} (ES256) and whose payload is the credential, with the version’s digest and its revocation status entry. Signed once, on the first request for the version, then the same bytes every time. Verify it with the key of the issuer’s DID document (docs/credentials.md).',
      tag: 'Credentials',
      responses: {
        200: { description: 'The credential', contentType: 'application/vc+jwt', schema: JWT_SCHEMA, headers: { 'Cache-Control': header('private, max-age=31536000, immutable: a signed version never changes') } },
      },
      errors: [...API_KEY_ERRORS, 404],
    },
    'GET /{orgId}/{environment}/p/{gtin}/{version}/credential.jwt': {
      summary: "A passport version's signed credential, public",
      description: 'The same credential as the API’s, beside the version’s immutable pages and linked from the linkset (docs/credentials.md). No scan is counted. An unknown version is 404, cacheable for a minute.',
      tag: 'Credentials',
      responses: { 200: { description: 'The credential', contentType: 'application/vc+jwt', schema: JWT_SCHEMA, headers: { 'Cache-Control': IMMUTABLE } } },
      errors: [404],
      errorHeaders: PUBLIC_NOT_FOUND,
    },
    'GET /orgs/{orgId}/did.json': {
      summary: "The organization's DID document (did:web)",
      description:
        'The DID document of did:web:{resolver host}:orgs:{orgId}: every key the organization ever signed credentials with (rotation keeps old ones), each a JsonWebKey verification method (P-256 public JWK) listed under assertionMethod (docs/credentials.md).',
      tag: 'Credentials',
      responses: {
        200: {
          description: 'The DID document',
          contentType: DID_JSON_MEDIA_TYPE,
          schema: z.object({ id: z.string(), verificationMethod: z.array(z.object({ id: z.string(), type: z.literal('JsonWebKey'), controller: z.string(), publicKeyJwk: z.object({}).loose() })), assertionMethod: z.array(z.string()) }).loose(),
          headers: { 'Cache-Control': header('public, max-age=300: a rotation adds a key') },
        },
      },
      errors: [404],
      errorHeaders: PUBLIC_NOT_FOUND,
    },
    'GET /.well-known/did.json': {
      summary: "A verified brand domain's DID document (did:web)",
      description: 'On a verified brand domain: the DID document of did:web:{hostname}, with the organization’s keys, alsoKnownAs its platform DID. Elsewhere 404 (docs/credentials.md).',
      tag: 'Credentials',
      responses: { 200: { description: 'The DID document', contentType: DID_JSON_MEDIA_TYPE, schema: z.object({ id: z.string(), verificationMethod: z.array(z.object({}).loose()) }).loose(), headers: { 'Cache-Control': header('public, max-age=300') } } },
      errors: [404],
      errorHeaders: PUBLIC_NOT_FOUND,
    },
    'GET /{orgId}/{environment}/status/{list}': {
      summary: 'A Bitstring Status List credential',
      description:
        'The environment’s revocation list as a BitstringStatusListCredential secured with VC-JOSE: bit n is set while the product whose credentials name index n is withdrawn (docs/credentials.md#revocation). Cacheable for a minute.',
      tag: 'Credentials',
      responses: { 200: { description: 'The status list credential', contentType: 'application/vc+jwt', schema: JWT_SCHEMA, headers: { 'Cache-Control': header('public, max-age=60') } } },
      errors: [404],
      errorHeaders: PUBLIC_NOT_FOUND,
    },
  };
}

/** An entry for each resolver route of the route table (lib/api/routes.ts), made from the shape of its path. */
function resolverOperations(): Record<string, OperationDoc> {
  const out: Record<string, OperationDoc> = {};
  for (const route of ROUTES.filter((r) => r.function === 'resolver')) {
    const key = `${route.method} ${route.path}`;
    if (route.path.includes('/p/{gtin}/{version}/{page}') && (route.method === 'GET' || route.method === 'HEAD')) out[key] = versionPage(route.method);
    else if (route.path.includes('/p/{gtin}/{version}/{ai}/{unit}/{unitVersion}/{page}') && (route.method === 'GET' || route.method === 'HEAD')) out[key] = unitPage(route.method);
    else if (/(?:\/01\/\{gtin\}(?:\/\{qualifiers\+\})?|\/\{compressed\})$/.test(route.path) && (route.method === 'GET' || route.method === 'HEAD' || route.method === 'OPTIONS')) {
      out[key] = resolution(route.method, !route.path.startsWith('/{orgId}'), route.path.endsWith('{qualifiers+}'), route.path.endsWith('{compressed}'));
    }
  }
  return out;
}

export const OPERATIONS: Record<string, OperationDoc> = {
  'POST /v1/products': {
    summary: 'Register a product', description: 'Registers a product by its GTIN and answers with its qrCodeUrl, the GS1 Digital Link URI to print. A GTIN already registered in this environment is refused with 409.',
    tag: 'Products',
    body: createProductSchema,
    responses: { 201: { description: 'Created; qrCodeUrl is final', schema: createdProductSchema } },
    errors: [400, ...API_KEY_ERRORS, 409, 413, 422],
  },
  'GET /v1/products': {
    summary: "List the organization's products",
    description: 'Offset form without starting_after; cursor form with it. Oldest first.',
    tag: 'Products',
    query: listProductsQuery,
    responses: { 200: { description: 'A page of products', schema: productListSchema } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/products/{productId}': {
    summary: 'Get a product', description: "One product of the organization; another organization's product is 404, as is an unknown id.",
    tag: 'Products',
    responses: { 200: { description: 'The product', schema: productSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'PATCH /v1/products/{productId}': {
    summary: 'Update a product',
    description: 'Partial: omitted fields stay; sku: null clears the SKU; gtin cannot change. Never changes passport data.',
    tag: 'Products',
    body: updateProductSchema,
    responses: { 200: { description: 'The updated product', schema: z.object({ product: productSchema }) } },
    errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
  },
  'POST /v1/products/{productId}/withdraw': {
    summary: 'Withdraw a product',
    description:
      'Marks the product withdrawn (docs/lifecycle.md#withdrawal): its Digital Link and linkset answer 410 Gone with a page in the visitor’s language, while the API still reads the product and every passport version; nothing is deleted. 409 when it is already withdrawn. Writes a product.withdrawn event.',
    tag: 'Products',
    body: withdrawProductSchema,
    responses: { 200: { description: 'The withdrawn product', schema: productSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
  },
  'POST /v1/products/{productId}/reinstate': {
    summary: 'Reinstate a withdrawn product',
    description: 'Undoes a withdrawal: the Digital Link resolves again. 409 when the product is not withdrawn. Writes a product.reinstated event.',
    tag: 'Products',
    responses: { 200: { description: 'The reinstated product', schema: productSchema } },
    errors: [...API_KEY_ERRORS, 404, 409],
  },
  'GET /v1/products/{productId}/qr': {
    summary: "The product's QR code", description: 'The QR code of qrCodeUrl as SVG, size pixels wide with a quiet zone of margin modules.',
    tag: 'Products',
    query: qrQuerySchema,
    responses: { 200: { description: 'An SVG QR code of qrCodeUrl', contentType: 'image/svg+xml', schema: z.string() } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'GET /v1/exports/products': {
    summary: "Export the organization's products with their current passports",
    description: `One page of the products, oldest first, each with its current passport data, in the columns of the import template (GET /v1/imports/template.csv): a CSV page imports back unchanged. At most ${MAX_EXPORT_ROWS} rows a page; the Link header (rel="next") gives the next page while there is one. Needs both products:read and passports:read.`,
    tag: 'Products',
    query: exportQuerySchema,
    responses: {
      200: {
        description: 'A page of the export',
        contentType: 'text/csv',
        schema: z.string().describe('CSV (RFC 4180, CRLF): the header row, then one row a product'),
        alternatives: { 'application/x-ndjson': z.string().describe('One JSON object a line: the non-empty cells of a row by column header') },
        headers: {
          'Content-Disposition': header('attachment; filename="products.csv" (or products.ndjson)'),
          Link: header('The next page: </v1/exports/products?format=…&limit=…&starting_after={productId}>; rel="next". Absent on the last page.', z.string(), false),
        },
      },
    },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'POST /v1/exports/archive': {
    summary: "The organization's whole archive, to leave the service with its passports and their proofs",
    description: `Builds a ZIP of this environment's data and answers a presigned URL to it, valid ${ARCHIVE_URL_SECONDS / 60} minutes (docs/import-export.md#leaving-the-archive): products.jsonl (the product export's JSON Lines), passports.jsonl (every passport version with digest and previousDigest), batches.jsonl and items.jsonl (every version of each), credentials.jsonl (each passport version's signed credential JWT; a version never signed is signed now), did.json (the organization's DID document, to verify the credentials offline) and manifest.json (each file's SHA-256 and line count). Restricted battery elements are included: it is the organization's own data. At most ${MAX_ARCHIVE_LINES.toLocaleString('en')} lines and ${MAX_ARCHIVE_SIGNATURES.toLocaleString('en')} credentials to sign per archive, else 422 before anything is written. Needs both products:read and passports:read. A POST because it signs the credentials not yet signed and writes the archive (nothing else changes, no event): called with the dashboard's session cookie it needs the Origin of the dashboard and the X-CSRF-Token, like every state-changing call. Takes no body.`,
    tag: 'Products',
    responses: { 200: { description: 'The archive: its URL, size, SHA-256 and files', schema: archiveSchema } },
    errors: [...API_KEY_ERRORS, 422],
  },
  'POST /v1/passports': {
    summary: 'Publish a passport version',
    description:
      "Publishes data as the product's next version (1, 2, …). data is of the kind the product's category takes: a battery passport (BatteryPassportData) for category battery, the wine and food data for every other (the other kind is a 422 naming data). A battery passport is refused (422) while it lacks an element mandatory for its battery category on the day of publishing (or asOf): param names the first missing element (data.labeling.declarationOfConformity), params every one; the answer carries the completeness report (docs/battery.md#completeness-and-publishing). An unknown product is 404 before its data is read.",
    tag: 'Passports',
    query: publishQuerySchema,
    body: createPassportSchema,
    responses: { 201: { description: 'Published', schema: createdPassportSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
  },
  'GET /v1/products/{productId}/passport': {
    summary: "A product's current passport, or the one current at an instant",
    description:
      'The newest published version in its read form; 404 while the product has none. With at (an ISO 8601 instant), the version that was current then: the newest published at or before it (404, param at, before version 1). docs/lifecycle.md#point-in-time',
    tag: 'Passports',
    query: passportAtQuerySchema,
    responses: { 200: { description: 'The read form', schema: passportSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'GET /v1/products/{productId}/draft': {
    summary: "A product's draft", description: 'The one draft of the product (never public); 404 when it has none. docs/lifecycle.md#drafts',
    tag: 'Passports',
    responses: { 200: { description: 'The draft', schema: draftSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'PUT /v1/products/{productId}/draft': {
    summary: "Create or replace a product's draft",
    description:
      "The draft becomes {data}, validated as passport data of the product's kind (a battery passport for category battery; the other kind is a 422 naming data). A draft may be incomplete: its missing list says what publishing would refuse. Writes a passport.draft.updated event.",
    tag: 'Passports',
    body: draftInputSchema,
    responses: { 200: { description: 'The draft', schema: draftSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
  },
  'PATCH /v1/products/{productId}/draft': {
    summary: "Merge a patch into a product's draft",
    description:
      'An RFC 7396 JSON Merge Patch of the draft’s own shape, sent as application/merge-patch+json (415 otherwise): members replace, null removes, objects merge, arrays replace whole. The result is validated as a whole (422 names the field). 404 when there is no draft. Writes a passport.draft.updated event.',
    tag: 'Passports',
    bodyContent: { 'application/merge-patch+json': z.object({ data: z.record(z.string(), z.unknown()).nullable().optional() }).describe('A merge patch: {"data": {"vintage": 2022, "producers": null}}') },
    responses: { 200: { description: 'The merged draft', schema: draftSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 415, 422],
  },
  'DELETE /v1/products/{productId}/draft': {
    summary: "Discard a product's draft", description: 'Deletes the draft; published versions are untouched. Writes a passport.draft.deleted event.',
    tag: 'Passports',
    responses: { 200: { description: 'Discarded', schema: z.object({ productId: z.uuid(), deleted: z.literal(true) }) } },
    errors: [...API_KEY_ERRORS, 404, 409],
  },
  'POST /v1/products/{productId}/draft/publish': {
    summary: "Publish a product's draft",
    description:
      'Publishes the draft as the next version and removes it, in one transaction (the same answer as POST /v1/passports). 404 when there is no draft; 409 when it changed while publishing; 422 naming the field when a wine draft lacks part of its nutrition declaration, or a battery draft an element mandatory on the day of publishing or asOf (params lists every one; the draft\'s missing list; the draft stays). Writes a passport.published event.',
    tag: 'Passports',
    query: publishQuerySchema,
    responses: { 201: { description: 'Published', schema: createdPassportSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 409, 422],
  },
  'GET /v1/products/{productId}/passport/completeness': {
    summary: "What a product's passport has and lacks",
    description:
      'The completeness report of the current version, or of the draft with draft=true (404 when there is none), judged on asOf (default today, UTC). A battery passport: each element of the element map present or missing, with its Annex XIII point, audience and whether the regulation requires it of the battery category on that day; missingMandatory is exactly what publishing the same data that day refuses (docs/battery.md#completeness-and-publishing). Other passports: what publishing would refuse as missing (a wine\'s nutrition declaration), no elements.',
    tag: 'Passports',
    query: completenessQuerySchema,
    responses: { 200: { description: 'The report', schema: completenessReportSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'GET /v1/products/{productId}/passports': {
    summary: "A product's passport versions, newest first", description: 'Every published version of the product, newest first, in cursor pages.',
    tag: 'Passports',
    query: versionsQuery,
    responses: { 200: { description: 'A page of versions', schema: cursorPage(passportVersionSchema) } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'POST /v1/suppliers': {
    summary: 'Register a supplier (economic operator)', description: 'Registers an economic operator (producer, bottler, importer, …) with its country and VAT number.',
    tag: 'Suppliers',
    body: createSupplierSchema,
    responses: { 201: { description: 'Created', schema: supplierSchema } },
    errors: [400, ...API_KEY_ERRORS, 413, 422],
  },
  'GET /v1/suppliers': {
    summary: 'List suppliers, oldest first', description: "The organization's suppliers, oldest first, in cursor pages.",
    tag: 'Suppliers',
    query: listSuppliersQuery,
    responses: { 200: { description: 'A page of suppliers', schema: cursorPage(supplierSchema) } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/suppliers/{supplierId}': {
    summary: 'Get a supplier', description: 'One supplier of the organization; an unknown id is 404.',
    tag: 'Suppliers',
    responses: { 200: { description: 'The supplier', schema: supplierSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'POST /v1/imports': {
    summary: 'Import products and passports from a file',
    description: [
      'The body is the file: CSV (text/csv), an Excel workbook (.xlsx, at most 4 MB) or JSON Lines (application/x-ndjson), at most 5 MB and 10,000 rows, with the columns of the template (docs/imports.md).',
      'Every row is checked on upload; the rows that pass are imported by a worker: each upserts its product by GTIN and publishes a passport version only when the data differs from the current one. Answers 202 with the job id; GET /v1/imports/{importId} shows its progress.',
      'With dryRun=true every row is checked against the organization\'s data and the report comes back at once (200); nothing is written.',
      'With type=items and productId, the file registers that product\'s serialised items instead: CSV or JSON Lines of up to 100,000 rows with the columns serial, lot, status and data.* (docs/import-export.md#items); one item.imported event per chunk.',
    ].join(' '),
    tag: 'Imports',
    query: importQuerySchema,
    bodyContent: {
      'text/csv': z.string().meta({ description: 'CSV, UTF-8 (a byte-order mark is ignored), the header row first' }),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': z.string().meta({ format: 'binary', description: 'Excel workbook: the first worksheet, headers in row 1' }),
      'application/x-ndjson': z.string().meta({ description: 'One JSON object per line: keys are the column headers, or nested objects flattened to them' }),
    },
    responses: {
      202: { description: 'Queued', schema: queuedImportSchema, headers: { Location: { description: 'The job', required: true, schema: z.string() } } },
      200: { description: 'The dry run\'s report (nothing written)', schema: importJobSchema },
    },
    errors: [400, ...API_KEY_ERRORS, 404, 413, 415, 422],
  },
  'GET /v1/imports': {
    summary: 'List import jobs, newest first', description: "The organization's import jobs, newest first, in cursor pages, without their row errors (GET /v1/imports/{importId} has them).",
    tag: 'Imports',
    query: importListQuerySchema,
    responses: { 200: { description: 'A page of import jobs', schema: cursorPage(importJobSummarySchema) } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/imports/{importId}': {
    summary: 'Get an import job', description: 'Its status, counts and row errors (row number and column header as in the file); an unknown id is 404.',
    tag: 'Imports',
    responses: { 200: { description: 'The import job', schema: importJobSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'GET /v1/imports/template.csv': {
    summary: 'The import template as CSV',
    description: 'One header row with every column of an import (product fields, passport fields flattened with dots, ingredients separated by |), and a row of example values (docs/import-export.md). The export answers in the same columns.',
    tag: 'Imports',
    responses: {
      200: {
        description: 'The template',
        contentType: 'text/csv',
        schema: z.string().describe('CSV (RFC 4180, CRLF): the header row and one example row'),
        headers: { 'Content-Disposition': header('attachment; filename="import-template.csv"') },
      },
    },
    errors: [...API_KEY_ERRORS],
  },
  'GET /v1/imports/template.xlsx': {
    summary: 'The import template as an Excel workbook',
    description: 'The same columns and example row as template.csv, in one worksheet; identifier columns (gtin, sku, facilityId, …) are formatted as text so that leading zeros stay.',
    tag: 'Imports',
    responses: {
      200: {
        description: 'The template',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        schema: z.string().meta({ format: 'binary' }),
        headers: { 'Content-Disposition': header('attachment; filename="import-template.xlsx"') },
      },
    },
    errors: [...API_KEY_ERRORS],
  },
  'GET /v1/analytics/product/{productId}': {
    summary: "A product's scan analytics",
    description: 'Aggregate counts only: nothing personal is kept.',
    tag: 'Analytics',
    query: analyticsQuery,
    extensions: ANALYTICS_WINDOW,
    responses: { 200: { description: 'Analytics of the window', schema: analyticsSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'GET /v1/events': {
    summary: 'List events, newest first',
    description:
      'The append-only event log of the organization and environment (docs/lifecycle.md#event-log): every state change, written in the same transaction as the change, with who made it and in which request. Cursor pages of limit (1–100, default 25) after starting_after; type filters one event type.',
    tag: 'Events',
    query: listEventsQuerySchema.extend({
      starting_after: listEventsQuerySchema.shape.starting_after.meta({
        description: 'Cursor: the id of the last event of the previous page; it must be an event of this tenant (otherwise 422)',
        'x-refers-to': 'eventId',
      }),
    }),
    responses: { 200: { description: 'A page of events', schema: cursorPage(eventSchema) } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/events/{eventId}': {
    summary: 'Get an event', description: 'One event; an unknown id, or another organization’s, is 404.',
    tag: 'Events',
    responses: { 200: { description: 'The event', schema: eventSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'GET /.well-known/gs1resolver': {
    summary: 'What this GS1 resolver supports', description: 'The GS1 resolver description: its name, root and the primary keys it resolves (GTIN).',
    tag: 'Resolver',
    responses: { 200: { description: 'The resolver description', schema: z.object({ name: z.string(), resolverRoot: z.string(), supportedPrimaryKeys: z.array(z.string()) }).loose() } },
    errors: [403],
  },
  ...resolverOperations(),
  ...credentialOperations(),
  ...unitOperations('batch'),
  ...unitOperations('item'),
  ...registryOperations(),
  ...handoverOperations(),
  ...transferOperations(),
  ...accessOperations(),
  ...inspectOperations(),
  ...registryFileOperations(),
  ...signOffOperations(),
  'POST /v1/event-subscriptions': {
    summary: 'Create an event subscription',
    description:
      `Events of the types named (or every type, ["*"]) are POSTed to url, signed per Standard Webhooks (docs/webhooks-outbound.md). The answer holds the signing secret, shown this once. url must be https:// and its host must resolve to public addresses only (422 otherwise). An organization's environment has at most ${MAX_EVENT_SUBSCRIPTIONS} subscriptions (422 beyond).`,
    tag: 'Event subscriptions',
    body: createSubscriptionSchema,
    responses: { 201: { description: 'Created; secret is shown this once', schema: createdSubscriptionSchema } },
    errors: [400, ...API_KEY_ERRORS, 413, 422],
  },
  'GET /v1/event-subscriptions': {
    summary: "The tenant's event subscriptions",
    description: `The event subscriptions of the organization and environment (at most ${MAX_EVENT_SUBSCRIPTIONS}), oldest first, without secrets. Cursor pages of limit (1–100, default 25) after starting_after.`,
    tag: 'Event subscriptions',
    query: listSubscriptionsQuerySchema,
    responses: { 200: { description: 'A page of subscriptions', schema: cursorPage(subscriptionSchema) } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/event-subscriptions/{subscriptionId}': {
    summary: 'An event subscription', description: 'One subscription, without secrets; another organization’s id is 404.',
    tag: 'Event subscriptions',
    responses: { 200: { description: 'The subscription', schema: subscriptionSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'PATCH /v1/event-subscriptions/{subscriptionId}': {
    summary: "Change an event subscription's url, events, description or status",
    description: 'Partial: omitted fields stay. Setting status (enabled or disabled) clears the reason a subscription was disabled for.',
    tag: 'Event subscriptions',
    body: updateSubscriptionSchema,
    responses: { 200: { description: 'The subscription', schema: subscriptionSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
  },
  'DELETE /v1/event-subscriptions/{subscriptionId}': {
    summary: 'Delete an event subscription', description: 'Deletes the subscription; its pending retries are dropped.',
    tag: 'Event subscriptions',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), deleted: z.literal(true) }) } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'POST /v1/event-subscriptions/{subscriptionId}/rotate-secret': {
    summary: "Rotate an event subscription's secret",
    description: 'A new secret; for 24 hours deliveries carry two signatures in webhook-signature, one per secret.',
    tag: 'Event subscriptions',
    responses: {
      200: { description: 'The new secret, shown once', schema: z.object({ id: z.string(), secret: z.string(), previousSecretValidUntil: z.iso.datetime() }) },
    },
    errors: [...API_KEY_ERRORS, 404],
  },
  'POST /v1/event-subscriptions/{subscriptionId}/test': {
    summary: 'Send a ping event', description: 'Queues a ping event (not in the event log) to the subscription, even a disabled one; its delivery appears in the delivery log.',
    tag: 'Event subscriptions',
    responses: { 202: { description: 'Queued', schema: z.object({ deliveryId: z.string(), eventId: z.string(), type: z.literal('ping') }) } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'GET /v1/event-subscriptions/{subscriptionId}/deliveries': {
    summary: "An event subscription's delivery log",
    description: 'Deliveries newest first, each with its attempts (status code, duration, the first 1 KiB of the answer) and next retry; kept 30 days. Cursor pages of limit (1–100, default 25) after starting_after.',
    tag: 'Event subscriptions',
    query: listDeliveriesQuerySchema,
    responses: { 200: { description: 'A page of deliveries', schema: cursorPage(deliverySchema) } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'POST /v1/event-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry': {
    summary: 'Retry a delivery now',
    description: 'Queues one more attempt of the delivery, whatever its state; a failure does not restart the retry schedule.',
    tag: 'Event subscriptions',
    responses: { 202: { description: 'Queued; the delivery as it was', schema: deliverySchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'POST /v1/webhooks/endpoints': {
    summary: 'Create a webhook endpoint', description: "Creates an endpoint for a product-information system's deliveries; the answer holds its signing secret, shown this once. A custom source needs a mapping.",
    tag: 'Webhooks',
    body: createEndpointSchema,
    responses: { 201: { description: 'Created; secret is shown this once', schema: webhookEndpointSchema } },
    errors: [400, ...SESSION_ERRORS, 413, 422],
  },
  'GET /v1/webhooks/endpoints': {
    summary: "The organization's webhook endpoints", description: "Every webhook endpoint of the session's organization and environment, without secrets.",
    tag: 'Webhooks',
    responses: { 200: { description: 'Every endpoint', schema: dataList(webhookEndpointSchema) } },
    errors: [...SESSION_ERRORS],
  },
  'GET /v1/webhooks/endpoints/{endpointId}': {
    summary: 'A webhook endpoint, its mapping included', description: 'One webhook endpoint with its mapping, without secrets.',
    tag: 'Webhooks',
    responses: { 200: { description: 'The endpoint', schema: webhookEndpointSchema } },
    errors: [...SESSION_ERRORS, 404],
  },
  'PATCH /v1/webhooks/endpoints/{endpointId}': {
    summary: "Change a webhook endpoint's mapping, default category, description or signature scheme", description: 'Partial: omitted fields stay. signatureScheme standard-webhooks makes deliveries carry webhook-id, webhook-timestamp and webhook-signature (docs/security.md).',
    tag: 'Webhooks',
    body: updateEndpointSchema,
    responses: { 200: { description: 'The endpoint', schema: webhookEndpointSchema } },
    errors: [400, ...SESSION_ERRORS, 404, 413, 422],
  },
  'DELETE /v1/webhooks/endpoints/{endpointId}': {
    summary: 'Delete a webhook endpoint', description: 'Deletes the endpoint; deliveries signed for it are refused from then on.',
    tag: 'Webhooks',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), deleted: z.literal(true) }) } },
    errors: [...SESSION_ERRORS, 404],
  },
  'POST /v1/webhooks/endpoints/{endpointId}/rotate-secret': {
    summary: "Rotate a webhook endpoint's secret",
    description: 'The previous secret keeps verifying for 24 hours.',
    tag: 'Webhooks',
    responses: {
      200: { description: 'The new secret, shown once', schema: z.object({ id: z.string(), secret: z.string(), previousSecretValidUntil: z.iso.datetime() }) },
    },
    errors: [...SESSION_ERRORS, 404],
  },
  'POST /v1/domains': {
    summary: 'Add a brand domain',
    description:
      'Adds a hostname of the organization (such as id.brand.example), pending until verified: the answer names the TXT record to publish. Refused: IP addresses, localhost and its aliases, special-use names (RFC 6761: invalid, local, onion, alt, arpa, internal, and the documentation names example and test outside a local stack; docs/brand-domains.md), wildcards, the platform’s own resolver host and names under it (422); a hostname the organization already has, or that another organization verified (409).',
    tag: 'Domains',
    body: createDomainSchema,
    responses: { 201: { description: 'Created, pending: publish the TXT record, then verify', schema: domainSchema } },
    errors: [400, ...SESSION_ERRORS, 409, 413, 422],
  },
  'GET /v1/domains': {
    summary: "The organization's brand domains",
    description: 'Every domain of the organization, oldest first, with its status and TXT record.',
    tag: 'Domains',
    responses: { 200: { description: 'Every domain', schema: domainListSchema } },
    errors: [...SESSION_ERRORS],
  },
  'GET /v1/domains/{domainId}': {
    summary: 'A brand domain',
    description: 'One domain with its status and TXT record.',
    tag: 'Domains',
    responses: { 200: { description: 'The domain', schema: domainSchema } },
    errors: [...SESSION_ERRORS, 404],
  },
  'PATCH /v1/domains/{domainId}': {
    summary: "Make a verified domain the organization's live default",
    description:
      'default: true makes it the default (the previous default stops being it, in the same transaction): new live products then get qrCodeUrl https://{hostname}/01/{gtin14}; existing products keep theirs. A pending domain cannot be the default (422).',
    tag: 'Domains',
    body: updateDomainSchema,
    responses: { 200: { description: 'The domain', schema: domainSchema } },
    errors: [400, ...SESSION_ERRORS, 404, 409, 413, 422],
  },
  'DELETE /v1/domains/{domainId}': {
    summary: 'Delete a brand domain',
    description: 'Deletes the domain and frees its hostname; its host stops resolving. Printed codes on it stop working: delete only a domain never printed. Conditional on the domain as read: 409 only if concurrent changes of it kept winning (try again).',
    tag: 'Domains',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), deleted: z.literal(true) }) } },
    errors: [...SESSION_ERRORS, 404, 409],
  },
  'POST /v1/domains/{domainId}/verify': {
    summary: 'Verify a brand domain over DNS',
    description:
      'Looks up the TXT record the domain names; when it holds the value, the domain is verified and its hostname claimed for the organization. 422 names the TXT values found (or none); 409 when another organization verified the hostname first. A verified domain answers 200 as it is.',
    tag: 'Domains',
    responses: { 200: { description: 'Verified', schema: domainSchema } },
    errors: [...SESSION_ERRORS, 404, 409, 422],
  },
  'POST /v1/webhooks/ingest': {
    summary: 'Receive a signed delivery from a product-information system',
    description:
      'X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body>; or, on an endpoint whose signatureScheme is standard-webhooks, webhook-id, webhook-timestamp (Unix seconds, within 5 minutes) and webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the base64 after whsec_> (several space-separated allowed). The endpoint is named by ?endpoint=whe_… or X-Webhook-Endpoint. A delivery accepted before (the same body bytes, or the same webhook-id) answers duplicate: true; one older than the published data (its revision or update time) duplicate: true, stale: true; neither writes anything.',
    tag: 'Webhooks',
    query: z.object({ endpoint: z.string().optional() }),
    body: z.object({}).loose().describe('The PIM payload, mapped by the endpoint’s mapping'),
    responses: { 200: { description: 'Applied (or a duplicate, or an ignored event type)', schema: ingestResultSchema } },
    errors: [400, 401, 413, 422],
  },
  'GET /v1/vocabulary/ingredients': {
    summary: 'The ingredient vocabulary',
    description:
      'Every ingredient a passport may name by code ({"code": "tartaric-acid"} in data.ingredients): its additive category, its E-number where it has one, the allergen it carries, and its name in each of the 24 official EU languages, as the e-label shows it. Public and the same for everyone: cacheable for a day.',
    tag: 'Labelling',
    responses: {
      200: {
        description: 'The vocabulary',
        schema: vocabularyListSchema,
        headers: { 'Cache-Control': header('public, max-age=86400') },
      },
    },
    errors: [],
  },
  'POST /v1/nutrition/calculate': {
    summary: 'Compute the energy of a nutrition declaration',
    description:
      'The energy (kJ and kcal) the nutrients give with the conversion factors of Regulation (EU) No 1169/2011 Annex XIV (docs/labelling.md#energy-and-rounding): what publishing a passport stores when its nutrition omits energy. Alcohol may be given in % vol (× 0.789 g/ml). A declared energy more than 20 % and 10 kJ from the computed one is reported in disagreement (publishing it is a 422 naming data.nutrition.energyKj). Any API key or a dashboard session; nothing is stored.',
    tag: 'Labelling',
    body: calculateNutritionSchema,
    responses: { 200: { description: 'The completed nutrition, and where each energy figure comes from', schema: calculatedNutritionSchema } },
    errors: [400, ...API_KEY_ERRORS, 413, 422],
  },
  'GET /v1/labelling/terms': {
    summary: 'List the legal terms and their corrections',
    description:
      "Every legal term of the languages asked for (lang: codes separated by commas; all 24 when absent): the platform's wording, its source, whether a source confirmed it, and the organization's correction in this environment if any. One page, never more than 24 languages × the legal terms of each (15 today: 360 terms).",
    tag: 'Labelling',
    query: listLabelTermsQuerySchema,
    responses: { 200: { description: 'The terms, by language in the order asked for, each language in the order of the texts', schema: dataList(labelTermSchema) } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/labelling/terms/{lang}/{termKey}': {
    summary: 'Get a legal term',
    description: "One legal term: the platform's wording and the organization's correction, if any. An unknown language or text key is 404; an interface text (no source) is 422 naming termKey.",
    tag: 'Labelling',
    responses: { 200: { description: 'The term', schema: labelTermSchema } },
    errors: [...API_KEY_ERRORS, 404, 422],
  },
  'PUT /v1/labelling/terms/{lang}/{termKey}': {
    summary: 'Correct a legal term',
    description: `Sets the organization's wording of a legal term in this environment (text: 1 to ${MAX_TERM_TEXT} characters, one line, keeping the platform text's placeholders such as {list}; note: why). Pages of versions published afterwards show it; versions already published keep their wording. Writes labelling_term.updated. 409 conflict when the organization's corrections kept changing under concurrent requests (nothing written; send it again).`,
    tag: 'Labelling',
    body: putLabelTermSchema,
    responses: { 200: { description: 'The term with its correction', schema: labelTermSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
  },
  'DELETE /v1/labelling/terms/{lang}/{termKey}': {
    summary: "Remove a legal term's correction",
    description: "Removes the organization's wording: versions published afterwards show the platform's again. Writes labelling_term.deleted; a term without a correction is answered as it is and nothing is written. 409 conflict when the corrections kept changing under concurrent requests.",
    tag: 'Labelling',
    responses: { 200: { description: 'The term without a correction', schema: labelTermSchema } },
    errors: [...API_KEY_ERRORS, 404, 409, 422],
  },
  'GET /v1/openapi.json': {
    summary: 'This document', description: 'The OpenAPI 3.1 document of this API, generated from the route table and the schemas the handlers validate with.',
    tag: 'Reference',
    responses: { 200: { description: 'The OpenAPI 3.1 document', schema: z.object({ openapi: z.string() }).loose() } },
    errors: [],
  },
  'GET /docs': { summary: 'The API reference page', description: 'Swagger UI on /v1/openapi.json, served by the service itself (no other origin).', tag: 'Reference', responses: { 200: html('Swagger UI on this document, served offline') }, errors: [] },
  'GET /docs/{asset}': { summary: 'A file of the reference page', description: 'The stylesheet and scripts of the reference page.', tag: 'Reference', responses: { 200: { description: 'CSS or JavaScript' } }, errors: [404] },
  'GET /ready': {
    summary: 'Readiness',
    description:
      'Whether the service can serve requests now: the table and the queues each answer within 1 s (checked at most once a second per instance). 200 when all do; otherwise 503 service_unavailable, whose message names each dependency that did not answer and why (an error name or code, nothing secret), with Retry-After (docs/api.md#when-a-dependency-is-down). Never stored.',
    tag: 'Service',
    responses: {
      200: {
        description: 'Every dependency answered',
        schema: z.object({
          status: z.literal('ready'),
          dependencies: z.partialRecord(z.enum(['table', 'scanQueue', 'importQueue', 'deliveryQueue']), z.literal('ok')).describe('Each dependency checked'),
        }),
      },
    },
    errors: [],
  },
  'GET /v1/auth/login': {
    summary: 'Sign in to the dashboard', description: 'Starts the OpenID Connect authorization code flow with PKCE and redirects to the identity provider.',
    tag: 'Dashboard session',
    query: z.object({
      returnTo: loginQuerySchema.shape.returnTo.describe(
        'Where to go after signing in: a path on this API (not //…), or a URL on one of the dashboard origins (otherwise 422); default /v1/auth/session',
      ),
    }),
    responses: { 302: { description: 'To the identity provider (authorization code flow with PKCE)' } },
    errors: [400, 422],
  },
  'GET /v1/auth/callback': {
    summary: 'The identity provider returns here', description: 'Completes the sign-in, sets the session cookie and redirects to returnTo.',
    tag: 'Dashboard session',
    responses: { 303: { description: 'Signed in: the session cookie is set' } },
    errors: [400, 401, 403],
  },
  'POST /v1/auth/logout': {
    summary: 'Sign out', description: 'Ends the session and clears its cookie.',
    tag: 'Dashboard session',
    responses: { 200: { description: 'Signed out', schema: z.object({ signedOut: z.literal(true) }) } },
    errors: [...SESSION_ERRORS],
  },
  'GET /v1/auth/session': {
    summary: 'The signed-in user, organizations and current environment', description: 'The signed-in user, their organizations, the current organization and environment, and the CSRF token.',
    tag: 'Dashboard session',
    responses: { 200: { description: 'The session', schema: sessionSchema } },
    errors: [...SESSION_ERRORS],
  },
  'POST /v1/auth/session': {
    summary: 'Switch organization or environment', description: 'Switches the session to another organization the user belongs to (404 otherwise), or to the other environment.',
    tag: 'Dashboard session',
    body: switchSessionSchema,
    responses: { 200: { description: 'The switched session', schema: sessionSchema } },
    errors: [400, ...SESSION_ERRORS, 404, 413, 422],
  },
  'POST /v1/auth/api-keys': {
    summary: 'Create an API key', description: 'Creates an API key for the current or the given environment; the full key is in the answer only.',
    tag: 'API keys',
    body: createApiKeySchema,
    responses: { 201: { description: 'Created; key is shown this once', schema: createdApiKeySchema } },
    errors: [400, ...SESSION_ERRORS, 413, 422],
  },
  'GET /v1/auth/api-keys': {
    summary: "The organization's active API keys, masked", description: "The organization's active API keys, masked (prefix and last 4 characters), optionally of one environment.",
    tag: 'API keys',
    query: listApiKeysQuerySchema,
    responses: { 200: { description: 'Active keys', schema: dataList(apiKeySchema) } },
    errors: [400, ...SESSION_ERRORS, 422],
  },
  'DELETE /v1/auth/api-keys/{keyId}': {
    summary: 'Revoke an API key (irreversible; effective within 5 seconds)', description: 'Revokes the key; a revoked key is refused within 5 seconds.',
    tag: 'API keys',
    responses: { 200: { description: 'Revoked', schema: revokedApiKeySchema } },
    errors: [...SESSION_ERRORS, 404],
  },
};
