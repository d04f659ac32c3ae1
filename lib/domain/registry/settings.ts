import * as z from 'zod';
import { cursorLimit } from '../pagination.ts';
import { UNIT_VALUE_MAX_LENGTH, UNIT_VALUE_PATTERN, unitValueProblem } from '../unit.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { registryEntryOf } from './build.ts';
import { facilityGlnsSchema, registryCommodityCodeSchema } from './codes.ts';
import { REGISTRATION_STATUSES, REGISTRY_GRANULARITIES, type RegistryGranularity } from './entry.ts';
import { EORI_PATTERN, GLN_PATTERN, LEI_PATTERN, OPERATOR_SCHEMES, operatorIdentitySchema, reoIdOf, VAT_FORMATS, type OperatorIdentity } from './operator.ts';
import { REGISTRATION_ID_PATTERN, registrationIdOf, type RegistrationRecord } from './registration.ts';

/**
 * A tenant's registry settings and the registrations a client reads (docs/registry.md#settings,
 * docs/registry.md#registrations): the bodies, queries and answers of /v1/registry/*, and how a new
 * registration is made from the settings and a published identifier.
 */

/** Which EU registry a tenant registers with: its test environment with the acceptance registry, live with production (docs/registry.md#settings). */
export type RegistryName = 'acceptance' | 'production';
export const registryOf = (environment: Environment): RegistryName => (environment === 'test' ? 'acceptance' : 'production');

/** A tenant's registry settings as stored. */
export interface RegistrySettings {
  enabled: boolean;
  operator: OperatorIdentity;
  /** The facilities as the entry names them (`GLN-…`). */
  facilities: string[];
  commodityCode: string;
  /** Which way entries go out (docs/registry.md#the-outbox): `files` (the web upload, the default) or `api` (the outbox sends them). */
  submission: RegistrySubmission;
  /**
   * A reference to the eIDAS qualified electronic seal certificate the organization seals its
   * registrations with (Art. 4, 5 and 19(4) of 2026/1778, docs/registry.md#settings): an https URL
   * where it is published, or its SHA-256 fingerprint. Recorded, not checked.
   */
  sealCertificate?: string;
  /** When the registry first took an entry naming this operator: the operator is verified there (docs/registry.md#settings). Reset when the operator changes. */
  operatorVerifiedAt?: string;
  updatedAt: string;
}

/** The ways out to the registry: upload files built on request, or the outbox through the registry's API. */
export const REGISTRY_SUBMISSIONS = ['files', 'api'] as const;
export type RegistrySubmission = (typeof REGISTRY_SUBMISSIONS)[number];

const inner = (pattern: RegExp): string => pattern.source.replace(/^\^/, '').replace(/\$$/, '');
const identifierOf = (pattern: string, description: string, checkDigit?: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'identifier is required.' : 'identifier must be a string.') })
    .meta({ pattern, description, ...(checkDigit ? { 'x-check-digit': checkDigit } : {}) });

/**
 * The operator identity as the document states it, a form per scheme (its pattern, and its check
 * digits in `x-check-digit` where the scheme has them), then checked by operatorIdentitySchema, which
 * also takes lower case and spaces (docs/registry.md#operator-identifiers).
 */
const operatorInputSchema = z
  .discriminatedUnion(
    'scheme',
    [
      z.strictObject({ scheme: z.literal('EORI'), identifier: identifierOf(EORI_PATTERN.source, "An EORI number: the issuing member state's two letters and 1 to 15 letters or digits") }),
      z.strictObject({ scheme: z.literal('LEI'), identifier: identifierOf(LEI_PATTERN.source, 'An LEI (ISO 17442): 18 letters or digits and two check digits (ISO/IEC 7064 MOD 97-10)', 'ISO 7064 MOD 97-10') }),
      z.strictObject({
        scheme: z.literal('VAT'),
        identifier: identifierOf(`^(?:${Object.entries(VAT_FORMATS).map(([prefix, national]) => `${prefix}${inner(national)}`).join('|')})$`, "An EU VAT identification number with its member state's prefix (Greece: EL), the national part in that state's form"),
      }),
      z.strictObject({ scheme: z.literal('GLN'), identifier: identifierOf(GLN_PATTERN.source, 'A GLN: 13 digits, the last the GS1 check digit', 'GS1 mod-10') }),
    ],
    { error: `scheme must be one of: ${OPERATOR_SCHEMES.join(', ')}.` },
  )
  .pipe(operatorIdentitySchema);

/** The facilities as the document states them (13 digits with the GS1 check digit, each once), then checked by facilityGlnsSchema. */
const facilitiesInputSchema = z
  .array(z.string({ error: 'Each facility must be a GLN as a string.' }).meta({ pattern: GLN_PATTERN.source, 'x-check-digit': 'GS1 mod-10' }), { error: 'facilities must be a list of GLNs.' })
  .meta({ minItems: 1, maxItems: 20, uniqueItems: true, description: "The facilities' GLNs (13 digits, GS1 check digit), 1 to 20, each once: sent to the registry as GLN-{gln}" })
  .pipe(facilityGlnsSchema);

/** `PUT /v1/registry/settings`: the whole settings, each field checked (422 naming it: `operator.identifier`, `facilities[0]`, `commodityCode`). */
export const putRegistrySettingsSchema = z
  .strictObject({
    enabled: z.boolean({ error: 'enabled must be true or false.' }).describe('true: every passport, batch and item published from now on gets a registration (pending_checks); false: none'),
    operator: operatorInputSchema,
    facilities: facilitiesInputSchema,
    commodityCode: registryCommodityCodeSchema,
    submission: z
      .enum(REGISTRY_SUBMISSIONS, { error: `submission must be one of: ${REGISTRY_SUBMISSIONS.join(', ')}.` })
      .optional()
      .describe("files (default, also when left out): entries go out in upload files (POST /v1/registry/files); api: the outbox sends each entry through the registry's API as soon as it passes the pre-checks (docs/registry.md#the-outbox)"),
    sealCertificate: z
      .string({ error: 'sealCertificate must be a string.' })
      .trim()
      .max(2_000, { error: 'sealCertificate must be at most 2,000 characters.' })
      .regex(/^(?:[0-9A-Fa-f]{64}|https:\/\/\S+)$/, { error: 'sealCertificate must be an https URL where the certificate is published, or its SHA-256 fingerprint (64 hexadecimal digits).' })
      .optional()
      .describe("A reference to the organization's eIDAS qualified electronic seal certificate (an https URL, or its SHA-256 fingerprint): recorded with the operator identity, not checked (docs/registry.md#settings)"),
  })
  .meta({ id: 'RegistrySettingsUpdate', description: "The organization's registry settings in this environment: the operator identity, the facilities and the commodity code every entry names (docs/registry.md#settings)" });
export type PutRegistrySettings = z.output<typeof putRegistrySettingsSchema>;

export const registrySettingsSchema = z
  .object({
    object: z.literal('registry_settings'),
    environment: z.enum(['live', 'test']),
    registry: z.enum(['acceptance', 'production']).describe("The EU registry this environment's entries go to: test → acceptance, live → production"),
    enabled: z.boolean(),
    operator: z.object({ scheme: z.enum(OPERATOR_SCHEMES), identifier: z.string() }).nullable().describe('Normalized (upper case, no spaces); null before the settings are first saved'),
    reoId: z.string().nullable().describe("The entries' reoId: the scheme, a hyphen, the identifier"),
    facilities: z.array(z.string()).describe("The facilities' GLNs, 13 digits each"),
    commodityCode: z.string().nullable(),
    submission: z.enum(REGISTRY_SUBMISSIONS).describe('files: upload files; api: the outbox through the registry\'s API'),
    sealCertificate: z.string().nullable().describe("The reference to the organization's qualified electronic seal certificate, or null"),
    verification: z
      .object({
        status: z.enum(['unverified', 'verified']).describe('verified once the registry took an entry naming this operator (it registers only verified operators: Art. 4 and 5 of 2026/1778); unverified before, and again after the operator changes'),
        verifiedAt: z.iso.datetime().nullable(),
      })
      .describe("The operator's verification at the registry, as the service has seen it (docs/registry.md#settings)"),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'RegistrySettings', description: "The organization's registry settings in this environment (docs/registry.md#settings)" });
export type RegistrySettingsView = z.infer<typeof registrySettingsSchema>;

export function toRegistrySettingsView(environment: Environment, settings: RegistrySettings | undefined): RegistrySettingsView {
  return {
    object: 'registry_settings',
    environment,
    registry: registryOf(environment),
    enabled: settings?.enabled ?? false,
    operator: settings ? { scheme: settings.operator.scheme, identifier: settings.operator.identifier } : null,
    reoId: settings ? reoIdOf(settings.operator) : null,
    facilities: (settings?.facilities ?? []).map((id) => id.replace(/^GLN-/, '')),
    commodityCode: settings?.commodityCode ?? null,
    submission: settings?.submission ?? 'files',
    sealCertificate: settings?.sealCertificate ?? null,
    verification: { status: settings?.operatorVerifiedAt ? 'verified' : 'unverified', verifiedAt: settings?.operatorVerifiedAt ?? null },
    updatedAt: settings?.updatedAt ?? null,
  };
}

/** What one published identifier is: a model's, a batch's or an item's passport. */
export interface PublishedIdentifier {
  granularity: RegistryGranularity;
  /** Its GS1 Digital Link: the entry's upi and liveURL. */
  digitalLink: string;
  /** Its backup copy's public URL (docs/backup.md#the-public-copy); empty when the service keeps no public copy (the pre-checks hold it back). */
  backupURL: string;
  productId: string;
  gtin: string;
  lot?: string;
  serial?: string;
}

/** A new registration of an identifier, `pending_checks`, its entry built from the settings (docs/registry.md#registrations). */
export function newRegistration(tenant: Tenant, settings: RegistrySettings, published: PublishedIdentifier, now: string): RegistrationRecord {
  const entry = registryEntryOf({
    digitalLink: published.digitalLink,
    operator: settings.operator,
    facilities: settings.facilities,
    commodityCode: settings.commodityCode,
    backupURL: published.backupURL,
    granularity: published.granularity,
    ...(published.granularity === 'ITEM' ? { deactivated: false } : {}),
  });
  return {
    registrationId: registrationIdOf(tenant.orgId, tenant.environment, entry.upi),
    entry,
    granularity: published.granularity,
    productId: published.productId,
    gtin: published.gtin,
    ...(published.lot === undefined ? {} : { lot: published.lot }),
    ...(published.serial === undefined ? {} : { serial: published.serial }),
    status: 'pending_checks',
    reasons: [],
    warnings: [],
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

export const registrationIdSchema = z.string().regex(REGISTRATION_ID_PATTERN, { error: 'registrationId must be a registration id (reg_ and 26 letters or digits 2 to 7).' });

export const registrationListQuerySchema = z.strictObject({
  status: z.enum(REGISTRATION_STATUSES, { error: `status must be one of: ${REGISTRATION_STATUSES.join(', ')}.` }).optional(),
  granularity: z.enum(REGISTRY_GRANULARITIES, { error: `granularity must be one of: ${REGISTRY_GRANULARITIES.join(', ')}.` }).optional(),
  productId: z.uuid({ error: 'productId must be a product id (a UUID).' }).optional(),
  limit: cursorLimit,
  starting_after: registrationIdSchema.optional().describe('The id of the last registration of the previous page'),
});

/** The most registrations one on-demand call creates (docs/registry.md#registrations): the rest with the next call. */
export const MAX_REGISTRATIONS_PER_CALL = 1000;
/** The most products one on-demand call names. */
export const MAX_REGISTRATION_PRODUCTS = 100;

/** `POST /v1/registry/registrations`: the products whose passports, batches and items get their missing registrations, or all. */
const registrationProductIdsSchema = z
  .array(z.uuid({ error: 'Each product id must be a UUID.' }), { error: 'productIds must be a list of product ids.' })
  .min(1, { error: 'productIds must name at least one product.' })
  .max(MAX_REGISTRATION_PRODUCTS, { error: `productIds may name at most ${MAX_REGISTRATION_PRODUCTS} products.` })
  .describe(`Up to ${MAX_REGISTRATION_PRODUCTS} products of this environment`);

const unitValueOf = (kind: 'batch' | 'item') =>
  z
    .string({ error: `${kind === 'batch' ? 'lot' : 'serial'} must be a string.` })
    .meta({ pattern: UNIT_VALUE_PATTERN, maxLength: UNIT_VALUE_MAX_LENGTH })
    .superRefine((value, ctx) => {
      const problem = unitValueProblem(kind, value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** Batches and items by their product and lot or serial: the registrations of those records only. */
const registrationUnitsSchema = z
  .array(
    z.union([z.strictObject({ productId: z.uuid({ error: 'productId must be a UUID.' }), serial: unitValueOf('item') }), z.strictObject({ productId: z.uuid({ error: 'productId must be a UUID.' }), lot: unitValueOf('batch') })], {
      error: 'Each of items names a productId and either a serial (an item) or a lot (a batch).',
    }),
    { error: 'items must be a list of {productId, serial} or {productId, lot}.' },
  )
  .min(1, { error: 'items must name at least one batch or item.' })
  .max(MAX_REGISTRATION_PRODUCTS, { error: `items may name at most ${MAX_REGISTRATION_PRODUCTS} batches or items.` })
  .describe(`Up to ${MAX_REGISTRATION_PRODUCTS} batches or items of this environment, each by its product and its lot or serial`);

/** The products by id, batches and items by their keys, or every product: three shapes, so that the document states the either-or. */
export const createRegistrationsSchema = z
  .union(
    [
      z.strictObject({ productIds: registrationProductIdsSchema }, { error: 'Send either productIds or all: true.' }),
      z.strictObject({ items: registrationUnitsSchema }, { error: 'Send one of productIds, items or all: true.' }),
      z.strictObject({ all: z.literal(true, { error: 'all must be true, or left out.' }).describe('Every product of this environment, in creation order') }, { error: 'Send either productIds or all: true.' }),
    ],
    { error: 'Send one of productIds (up to 100 product ids), items (up to 100 batches or items) or all: true.' },
  )
  .meta({ id: 'RegistrationsCreate', description: 'One of {productIds}, {items: [{productId, serial} | {productId, lot}]} or {all: true} (422 naming the field otherwise).' });

export const registrationReasonSchema = z
  .object({
    source: z.enum(['precheck', 'registry']).describe("precheck: our check before sending; registry: the registry's own words"),
    code: z.string(),
    field: z.string().nullable().describe('The entry member it names'),
    message: z.string(),
  })
  .meta({ id: 'RegistrationReason' });

export const registrationSchema = z
  .object({
    object: z.literal('registration'),
    id: z.string().describe('reg_…, derived from the identifier: one registration per identifier and environment'),
    status: z.enum(REGISTRATION_STATUSES),
    granularity: z.enum(REGISTRY_GRANULARITIES),
    upi: z.string().describe('The unique product identifier: the GS1 Digital Link'),
    productId: z.string(),
    gtin: z.string(),
    lot: z.string().nullable(),
    serial: z.string().nullable(),
    entry: z
      .object({
        upi: z.string(),
        reoId: z.string(),
        facilitiesId: z.array(z.string()),
        liveURL: z.string(),
        backupURL: z.string(),
        commodityCode: z.string(),
        granularityLevel: z.enum(REGISTRY_GRANULARITIES),
        deactivated: z.boolean().nullable().optional().describe('Items only'),
      })
      .describe('The entry as it is sent (the CIRPASS-2 mock registry\'s members, docs/registry.md#the-entry)'),
    reasons: z.array(registrationReasonSchema).describe('Why it is pending_checks or rejected'),
    warnings: z.array(registrationReasonSchema).describe('Pre-check warnings: sent all the same'),
    registryId: z.string().nullable().describe("The registry's id of the entry, once taken"),
    registryUri: z.string().nullable(),
    correlationId: z.string().nullable().describe('The upload file set it went out in'),
    submittedAt: z.iso.datetime().nullable(),
    registeredAt: z.iso.datetime().nullable(),
    proofExpiresAt: z.iso.datetime().nullable().describe('When the proof of registration runs out (90 days after it was issued or last renewed; the outbox renews it 14 days before: docs/registry.md#proof-of-registration)'),
    proofRenewedAt: z.iso.datetime().nullable().describe('When the proof of registration was last renewed, or null'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Registration', description: 'A passport identifier on its way into the EU registry, and where it stands (docs/registry.md#registrations)' });
export type RegistrationView = z.infer<typeof registrationSchema>;

export const registrationListSchema = z.object({ data: z.array(registrationSchema), hasMore: z.boolean() }).meta({ id: 'RegistrationList' });

export const createdRegistrationsSchema = z
  .object({
    object: z.literal('registration_creation'),
    created: z.number().int().describe('Registrations created by this call'),
    existing: z.number().int().describe('Identifiers looked at that had one already'),
    hasMore: z.boolean().describe(`true when the call stopped at ${MAX_REGISTRATIONS_PER_CALL} registrations created: call again for the rest`),
  })
  .meta({ id: 'RegistrationsCreated' });
export type CreatedRegistrations = z.infer<typeof createdRegistrationsSchema>;

const reasonView = (reason: RegistrationRecord['reasons'][number]) => ({ source: reason.source, code: reason.code, field: reason.field ?? null, message: reason.message });

export const toRegistrationView = (record: RegistrationRecord): RegistrationView => ({
  object: 'registration',
  id: record.registrationId,
  status: record.status,
  granularity: record.granularity,
  upi: record.entry.upi,
  productId: record.productId,
  gtin: record.gtin,
  lot: record.lot ?? null,
  serial: record.serial ?? null,
  entry: { ...record.entry },
  reasons: record.reasons.map(reasonView),
  warnings: record.warnings.map(reasonView),
  registryId: record.registryId ?? null,
  registryUri: record.registryUri ?? null,
  correlationId: record.correlationId ?? null,
  submittedAt: record.submittedAt ?? null,
  registeredAt: record.registeredAt ?? null,
  proofExpiresAt: record.proofExpiresAt ?? null,
  proofRenewedAt: record.proofRenewedAt ?? null,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});
