import * as z from 'zod';
import { ACCESS_TIERS, AUDIENCES, PURPOSES, type AccessTier, type Audience, type Purpose } from './battery/access-tiers.ts';
import { cursorLimit } from './pagination.ts';
import { plainText } from './text.ts';

/**
 * Access to passports beyond the public (docs/access.md): grants from an owning organization to
 * another, authorities, and the ids the EN 18222 read API names passports by. Every category has
 * the same audiences (lib/domain/battery/access-tiers.ts); a wine's and a food's elements are all
 * public, a battery's follow its element map.
 */
export { ACCESS_TIERS, AUDIENCES, PURPOSES, type AccessTier, type Audience, type Purpose };

/** A grant as stored, the same in the owner's and the grantee's partitions (lib/data/access-grants.ts). */
export interface GrantRecord {
  grantId: string;
  /** The organization whose passports the grant opens, and the environment they live in. */
  ownerOrgId: string;
  environment: 'live' | 'test';
  granteeOrgId: string;
  tier: Exclude<AccessTier, 'public'>;
  /**
   * A `legitimate_interest` grant's purpose (Art. 77(2) third subparagraph, docs/access.md#purposes).
   * Absent: both purposes, as every legitimate-interest grant read before grants had a purpose.
   */
  purpose?: Purpose;
  /** The products it covers; absent: every product of the owner in that environment. */
  productIds?: string[];
  /** The grantee may also write the dynamic data of the covered items (a repairer, a repurposer). */
  write: boolean;
  expiresAt?: string;
  createdAt: string;
  revokedAt?: string;
  /** The access request whose approval made it (docs/access.md#access-requests). */
  accessRequestId?: string;
}

const GRANTABLE = ['legitimate_interest', 'authority'] as const;

/** What a grant opens: an authority grant the authorities' elements (Annex XIII points 1 to 3), a legitimate-interest grant its purpose's (both without one). */
export const audiencesOfGrant = (grant: Pick<GrantRecord, 'tier' | 'purpose'>): Audience[] =>
  grant.tier === 'authority' ? ['authority'] : grant.purpose === undefined ? [...PURPOSES] : [grant.purpose];

export const purposeSchema = z
  .enum(PURPOSES, { error: `purpose must be one of: ${PURPOSES.join(', ')}.` })
  .describe(
    'dismantling_repair_repurposing_recycling: Art. 77(2) third subparagraph (a), Annex XIII point 2 (composition, spare parts, dismantling, safety); energy_services: (b), an individual battery made available to aggregators or energy market participants, Annex XIII point 4 (docs/access.md#purposes)',
  );

export const grantIdSchema = z.string().regex(/^grant_[0-9a-z]{20}$/, { error: 'grantId must be an access grant id (grant_…).' });

/** `POST /v1/access-grants`. */
export const createGrantSchema = z
  .strictObject({
    granteeOrgId: z
      .string({ error: 'granteeOrgId must be an organization id.' })
      .regex(/^org_[0-9A-Za-z]{1,64}$/, { error: 'granteeOrgId must be an organization id (org_…).' })
      .describe('The organization that may read (and, with write, update) your passports'),
    tier: z
      .enum(GRANTABLE, { error: `tier must be one of: ${GRANTABLE.join(', ')}.` })
      .optional()
      .describe('authority (a battery: Annex XIII points 1 to 3) or legitimate_interest (with purpose; without one, both purposes\' elements, as before purposes); may be left out when purpose is given'),
    purpose: purposeSchema.optional(),
    productIds: z
      .array(z.uuid({ error: 'productIds must hold product ids.' }), { error: 'productIds must be a list of product ids.' })
      .min(1, { error: 'productIds must name at least one product, or be left out for all of them.' })
      .max(100, { error: 'productIds may name at most 100 products; leave it out to grant all of them.' })
      .optional()
      .describe('The products the grant covers (at most 100); absent: all of them, also those registered later'),
    expiresAt: z.iso.datetime({ offset: true, error: 'expiresAt must be an ISO 8601 instant such as 2027-12-31T23:59:59Z.' }).optional().describe('When the grant ends by itself'),
    write: z.boolean({ error: 'write must be true or false.' }).optional().describe("The grantee may also update the covered items' dynamic data (PATCH /v1/dpps/{dppId}); default false"),
  })
  .meta({ id: 'AccessGrantCreate' });
export type CreateGrant = z.infer<typeof createGrantSchema>;

export const grantListQuerySchema = z.strictObject({
  as: z.enum(['owner', 'grantee'], { error: 'as must be owner or grantee.' }).default('owner').describe('owner (default): the grants you gave; grantee: the grants you hold'),
  limit: cursorLimit,
  starting_after: grantIdSchema.optional(),
});

export const grantSchema = z
  .object({
    object: z.literal('access_grant'),
    id: z.string(),
    ownerOrgId: z.string(),
    granteeOrgId: z.string(),
    environment: z.enum(['live', 'test']),
    tier: z.enum(GRANTABLE),
    purpose: z.enum(PURPOSES).nullable().describe('A legitimate-interest grant\'s purpose; null: an authority grant, or a legitimate-interest grant for both purposes'),
    audiences: z.array(z.enum(AUDIENCES)).describe('Whose elements it opens (docs/battery.md#audiences)'),
    productIds: z.array(z.string()).nullable().describe('null: every product of the owner'),
    write: z.boolean(),
    expiresAt: z.iso.datetime({ offset: true }).nullable(),
    createdAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
    active: z.boolean().describe('Neither revoked nor expired'),
    accessRequestId: z.string().nullable().describe('The access request whose approval made it, if any'),
  })
  .meta({ id: 'AccessGrant', description: 'Access to an organization’s passports for an audience, given to another organization (docs/access.md#grants)' });
export type Grant = z.infer<typeof grantSchema>;
export const grantListSchema = z.object({ data: z.array(grantSchema), hasMore: z.boolean() }).meta({ id: 'AccessGrantList' });

/** Whether a grant opens anything at `now` (epoch ms). */
export const isActive = (grant: GrantRecord, now: number): boolean => grant.revokedAt === undefined && (grant.expiresAt === undefined || Date.parse(grant.expiresAt) > now);

/** Whether a grant covers a product. */
export const covers = (grant: GrantRecord, productId: string): boolean => grant.productIds === undefined || grant.productIds.includes(productId);

export const toGrantView = (grant: GrantRecord, now = Date.now()): Grant => ({
  object: 'access_grant',
  id: grant.grantId,
  ownerOrgId: grant.ownerOrgId,
  granteeOrgId: grant.granteeOrgId,
  environment: grant.environment,
  tier: grant.tier,
  purpose: grant.purpose ?? null,
  audiences: audiencesOfGrant(grant),
  productIds: grant.productIds ?? null,
  write: grant.write,
  expiresAt: grant.expiresAt ?? null,
  createdAt: grant.createdAt,
  revokedAt: grant.revokedAt ?? null,
  active: isActive(grant, now),
  accessRequestId: grant.accessRequestId ?? null,
});

export { dppIdOf, parseDppId, DPP_ID_MAX_LENGTH, type DppRef } from './dpp-id.ts';

/** `GET /v1/dppsByIdAndDate/{dppId}?date=`: the passport as it was at that instant (or the end of that day). */
export const byDateQuerySchema = z.strictObject({
  date: z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'date must be an ISO 8601 date or instant, such as 2027-03-01 or 2027-03-01T12:00:00Z.' })
    .transform((value) => (value.length === 10 ? `${value}T23:59:59.999Z` : value))
    .describe('A day (read at its end, UTC) or an instant'),
});

/** `POST /v1/dppsByProductIds`: up to 100 product identifiers (Digital Link URIs or GTINs of your own). */
export const byProductIdsSchema = z
  .strictObject({
    productIds: z
      .array(plainText(z.string({ error: 'productIds must hold strings.' }).min(1).max(2048, { error: 'A product identifier is at most 2048 characters.' }), 'A product identifier'), { error: 'productIds must be a list.' })
      .min(1, { error: 'productIds must name at least one product.' })
      .max(100, { error: 'productIds may name at most 100 products.' })
      .describe('Digital Link URIs (or GTINs of your own products)'),
  })
  .meta({ id: 'DppsByProductIds' });

/** A passport as the EN 18222 reads answer it (docs/access.md#reads). */
export const dppSchema = z
  .object({
    object: z.literal('dpp'),
    digitalProductPassportId: z.string().describe('The DPP id (dpp_…)'),
    uniqueProductIdentifier: z.url().describe("The product's (or record's) GS1 Digital Link"),
    granularity: z.enum(['model', 'batch', 'item']),
    dppSchemaVersion: z.string(),
    dppStatus: z.enum(['active', 'inactive']).describe('inactive: the product or record was withdrawn'),
    lastUpdate: z.iso.datetime(),
    economicOperatorId: z.string().nullable(),
    facilityId: z.string().nullable(),
    contentSpecificationIds: z.array(z.string()),
    accessTier: z
      .enum(['public', 'legitimate_interest', 'authority', 'owner'])
      .describe('The caller summarised as a tier: owner, else authority, else legitimate_interest (any purpose), else public; audiences says exactly what it read'),
    audiences: z.array(z.enum(AUDIENCES)).describe('The audiences the caller read as (docs/battery.md#audiences); the owner: all of them'),
    name: z.string(),
    category: z.string(),
    gtin: z.string(),
    version: z.int().min(1),
    digest: z.string(),
    unit: z
      .object({ kind: z.enum(['batch', 'item']), lot: z.string().optional(), serial: z.string().optional(), version: z.int().min(1), digest: z.string(), status: z.string() })
      .optional()
      .describe('The batch or item, for its DPP id'),
    data: z.record(z.string(), z.unknown()).describe('The elements the caller may read (a battery: those of its audiences; the owner: everything)'),
  })
  .meta({ id: 'Dpp', description: 'A digital product passport with the EN 18223 header fields the service has, and the data the caller may read' });

export const dppElementSchema = z
  .object({
    object: z.literal('dpp_element'),
    digitalProductPassportId: z.string(),
    elementPath: z.string(),
    tier: z.enum(ACCESS_TIERS).describe('The element\'s audiences summarised as a tier'),
    audiences: z.array(z.enum(AUDIENCES)).describe('Who reads the element (docs/battery.md#audiences)'),
    value: z.unknown(),
  })
  .meta({ id: 'DppElement' });

export const dppBatchSchema = z
  .object({
    data: z.array(z.object({ productIdentifier: z.string(), dpp: dppSchema.optional(), error: z.object({ type: z.string(), message: z.string() }).loose().optional() })),
  })
  .meta({ id: 'DppBatch' });
