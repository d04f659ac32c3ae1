import * as z from 'zod';
import { AUDIENCES_OF_POINT, PURPOSES, type Purpose } from './battery/access-tiers.ts';
import { purposeSchema } from './access.ts';
import { cursorLimit } from './pagination.ts';
import { plainText } from './text.ts';

/**
 * Requests for access (docs/access.md#access-requests): a person with a legitimate interest is
 * entitled to a battery passport's restricted elements by Regulation (EU) 2023/1542 Art. 77(2)(c)
 * for the purposes of its third subparagraph, not by the maker's goodwill. Any organization on the
 * platform asks the owner of passports for access for one purpose, with its justification; the
 * owner approves (a grant of that purpose follows, docs/access.md#purposes) or refuses with a
 * reason; a request left unanswered for OVERDUE_AFTER_DAYS days is listed as overdue.
 *
 * Who is legitimate is data (LEGITIMATE_PURPOSES), to be replaced when the implementing act of
 * Art. 77(9) (the access rights of persons with a legitimate interest) is adopted; its status is
 * IMPLEMENTING_ACT_STATUS.
 */

/** One purpose of Art. 77(2) third subparagraph: its basis in words, who it is for, what it opens. */
export interface PurposeRule {
  readonly purpose: Purpose;
  /** The regulation's provision. */
  readonly basis: string;
  /** Who the regulation names for it. */
  readonly who: string;
  /** The Annex XIII points its grant opens (AUDIENCES_OF_POINT). */
  readonly points: readonly (1 | 2 | 3 | 4)[];
  /** Point (b) is "in the case of individual batteries". */
  readonly individualBatteries: boolean;
  /** False: the pairing of the purpose with its Annex XIII point is our reading (docs/battery.md#audiences). */
  readonly confirmed: boolean;
}

const pointsOf = (purpose: Purpose): (1 | 2 | 3 | 4)[] => ([1, 2, 3, 4] as const).filter((point) => AUDIENCES_OF_POINT[point].includes(purpose));

/** The legitimate purposes, read in Art. 77(2) (docs/battery.md#sources): the whole rule of who may ask, until the Art. 77(9) act says more. */
export const LEGITIMATE_PURPOSES: Readonly<Record<Purpose, PurposeRule>> = {
  dismantling_repair_repurposing_recycling: {
    purpose: 'dismantling_repair_repurposing_recycling',
    basis: 'Regulation (EU) 2023/1542 Art. 77(2), second subparagraph (c), third subparagraph (a)',
    who: 'repairers, remanufacturers, second-life operators and recyclers, for the dismantling of the battery (its safety measures included) and the detailed composition of the battery model',
    points: pointsOf('dismantling_repair_repurposing_recycling'),
    individualBatteries: false,
    confirmed: false,
  },
  energy_services: {
    purpose: 'energy_services',
    basis: 'Regulation (EU) 2023/1542 Art. 77(2), second subparagraph (c), third subparagraph (b)',
    who: 'for an individual battery, its purchaser or parties acting on its behalf, to make the battery available to independent aggregators or energy market participants',
    points: pointsOf('energy_services'),
    individualBatteries: true,
    confirmed: false,
  },
};

/**
 * The implementing act of Art. 77(9) on access rights (docs/battery.md#audiences): not adopted as far
 * as we could find; a June 2026 secondary source reports a draft, "Batteries – access rights to
 * certain parts of the battery passport", on the Commission's Have Your Say portal. Unconfirmed.
 */
export const IMPLEMENTING_ACT_STATUS = {
  provision: 'Regulation (EU) 2023/1542 Art. 77(9)',
  status: 'not adopted (a draft reported in June 2026)',
  confirmed: false,
} as const;

/** A request unanswered this long is overdue. */
export const OVERDUE_AFTER_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'refused'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

/** A request as stored, the same in the requester's and the owner's partitions (lib/data/access-requests.ts). */
export interface AccessRequestRecord {
  requestId: string;
  /** The owner's environment, which is the requester's: a live key asks for live passports. */
  environment: 'live' | 'test';
  requesterOrgId: string;
  /** The requester's name when it asked, for the owner to judge. */
  requesterName: string;
  ownerOrgId: string;
  /** The owner's products it asks for (each with a published battery passport when asked). */
  productIds: string[];
  purpose: Purpose;
  justification: string;
  status: AccessRequestStatus;
  createdAt: string;
  answeredAt?: string;
  /** Why the owner refused. */
  reason?: string;
  /** The grant its approval made. */
  grantId?: string;
}

export const ACCESS_REQUEST_ID_PATTERN = /^areq_[0-9a-z]{20}$/;
export const accessRequestIdSchema = z.string().regex(ACCESS_REQUEST_ID_PATTERN, { error: 'requestId must be an access request id (areq_…).' });

/** The most product identifiers one request names: as many as a batch read, or a grant (docs/access.md#access-requests). */
export const MAX_REQUESTED_PRODUCTS = 100;
/** The longest justification and refusal reason, in characters. */
export const MAX_JUSTIFICATION = 2000;
export const MAX_REASON = 1000;

const orgIdSchema = (field: string) => z.string({ error: `${field} must be an organization id.` }).regex(/^org_[0-9A-Za-z]{1,64}$/, { error: `${field} must be an organization id (org_…).` });

const freeText = (field: string, max: number) =>
  plainText(
    z
      .string({ error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
      .trim()
      .min(1, { error: `${field} must not be empty.` })
      .max(max, { error: `${field} must be at most ${max} characters.` }),
    field,
    { lines: true },
  );

/** `POST /v1/access-requests`: the passports by their identifiers, or one GTIN of an organization. */
export const createAccessRequestSchema = z
  .strictObject({
    productIds: z
      .array(plainText(z.string({ error: 'productIds must hold strings.' }).min(1, { error: 'A product identifier must not be empty.' }).max(2048, { error: 'A product identifier is at most 2048 characters.' }), 'A product identifier'), {
        error: 'productIds must be a list of product identifiers.',
      })
      .min(1, { error: 'productIds must name at least one passport.' })
      .max(MAX_REQUESTED_PRODUCTS, { error: `productIds may name at most ${MAX_REQUESTED_PRODUCTS} passports.` })
      .optional()
      .describe("The passports' GS1 Digital Link URIs, as POST /v1/dppsByProductIds takes them (all of one organization); or leave it out and send ownerOrgId and gtin"),
    ownerOrgId: orgIdSchema('ownerOrgId').optional().describe('With gtin: the organization whose product it is (a GTIN is unique per organization only)'),
    gtin: plainText(z.string({ error: 'gtin must be a string of 8, 12, 13 or 14 digits.' }).max(14, { error: 'gtin must be 8, 12, 13 or 14 digits.' }), 'gtin').optional().describe("With ownerOrgId: the product's GTIN"),
    purpose: purposeSchema,
    justification: freeText('justification', MAX_JUSTIFICATION).describe('Why you need the elements of that purpose: your activity, the batteries concerned (at most 2000 characters)'),
  })
  .meta({ id: 'AccessRequestCreate', description: 'Either productIds (ownerOrgId optional, then checked), or ownerOrgId and gtin; not productIds and gtin together (422 naming gtin).' });
export type CreateAccessRequest = z.infer<typeof createAccessRequestSchema>;

/** `POST /v1/access-requests/{requestId}/refuse`. */
export const refuseAccessRequestSchema = z
  .strictObject({ reason: freeText('reason', MAX_REASON).describe('Why (at most 1000 characters): the requester reads it') })
  .meta({ id: 'AccessRequestRefuse' });

export const accessRequestListQuerySchema = z.strictObject({
  as: z.enum(['owner', 'requester'], { error: 'as must be owner or requester.' }).default('owner').describe('owner (default): the requests made to you; requester: those you made'),
  limit: cursorLimit,
  starting_after: accessRequestIdSchema.optional(),
});

export const accessRequestSchema = z
  .object({
    object: z.literal('access_request'),
    id: z.string(),
    environment: z.enum(['live', 'test']),
    requesterOrgId: z.string(),
    requesterName: z.string(),
    ownerOrgId: z.string(),
    productIds: z.array(z.string()).describe("The owner's products asked for"),
    purpose: z.enum(PURPOSES),
    basis: z.string().describe('The provision of Regulation (EU) 2023/1542 the purpose rests on'),
    justification: z.string(),
    status: z.enum(ACCESS_REQUEST_STATUSES),
    createdAt: z.iso.datetime(),
    answerDueBy: z.iso.datetime().describe(`${OVERDUE_AFTER_DAYS} days after createdAt`),
    overdue: z.boolean().describe(`Pending ${OVERDUE_AFTER_DAYS} days or more`),
    answeredAt: z.iso.datetime().nullable(),
    reason: z.string().nullable().describe('Why it was refused'),
    grantId: z.string().nullable().describe('The grant its approval made'),
  })
  .meta({ id: 'AccessRequest', description: 'A request for access to passports for a purpose of Art. 77(2) (docs/access.md#access-requests)' });
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const accessRequestListSchema = z.object({ data: z.array(accessRequestSchema), hasMore: z.boolean() }).meta({ id: 'AccessRequestList' });

/** When a request is due: OVERDUE_AFTER_DAYS after it was made. */
export const answerDueBy = (record: Pick<AccessRequestRecord, 'createdAt'>): string => new Date(Date.parse(record.createdAt) + OVERDUE_AFTER_DAYS * DAY_MS).toISOString();

/** Whether a request is still unanswered at its due day (`now`, epoch ms). */
export const isOverdue = (record: Pick<AccessRequestRecord, 'createdAt' | 'status'>, now: number): boolean => record.status === 'pending' && now >= Date.parse(answerDueBy(record));

export const toAccessRequestView = (record: AccessRequestRecord, now = Date.now()): AccessRequest => ({
  object: 'access_request',
  id: record.requestId,
  environment: record.environment,
  requesterOrgId: record.requesterOrgId,
  requesterName: record.requesterName,
  ownerOrgId: record.ownerOrgId,
  productIds: record.productIds,
  purpose: record.purpose,
  basis: LEGITIMATE_PURPOSES[record.purpose].basis,
  justification: record.justification,
  status: record.status,
  createdAt: record.createdAt,
  answerDueBy: answerDueBy(record),
  overdue: isOverdue(record, now),
  answeredAt: record.answeredAt ?? null,
  reason: record.reason ?? null,
  grantId: record.grantId ?? null,
});
