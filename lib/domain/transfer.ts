import * as z from 'zod';
import { CATEGORIES, type Category } from './enums.ts';
import { cursorLimit } from './pagination.ts';
import type { ProductRecord } from './product.ts';
import type { Environment, Tenant } from './tenant.ts';

/**
 * A transfer of a product to another organization on the platform: a change of economic operator
 * (docs/transfers.md). The owning organization (the sender) offers one of its products; the
 * receiving organization accepts (or declines); the sender may cancel an offer not yet accepted.
 * Both agree: the sender's offer is its acceptance, the receiver's acceptance completes the
 * agreement. The product then moves, with its batches, items, passport versions (digests and
 * `previous` links unchanged) and registrations, from the sender's tenant to the receiver's, in
 * resumable steps (`MOVE_PHASES`).
 *
 * Regulation (EU) 2023/1542 Art. 77(4): the economic operator that places the battery on the market
 * keeps the passport's information accurate, complete and up to date (read in a secondary source,
 * docs/transfers.md#what-the-law-says); ESPR (Regulation (EU) 2024/1781) Art. 11(c), (e): the passport
 * is stored by the operator responsible for it or a DPP service provider, and stays available for
 * the period a delegated act sets (read in the legal text, German).
 */

export const TRANSFER_STATUSES = ['offered', 'accepted', 'declined', 'cancelled', 'completed'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/**
 * The steps of the move, in order (docs/transfers.md#the-move): `copy` (the product's versions,
 * pages, batches, items and draft written into the receiver's tenant, where nothing shows them yet),
 * `switch` (one transaction: the product and its public view appear in the receiver's tenant and the
 * sender's GTIN item becomes a pointer to it), `registrations` (each moved with the receiver's
 * operator, back to `pending_checks`), `cleanup` (the sender's copies deleted), then `completed`.
 */
export const MOVE_PHASES = ['copy', 'registrations', 'cleanup'] as const;
export type MovePhase = (typeof MOVE_PHASES)[number];

/**
 * The kinds of stored items the copy step carries over, in order: each a range of the sender's
 * partition read a page at a time (docs/transfers.md#what-moves-and-what-stays).
 */
export const COPY_SETS = ['passports', 'pages', 'batches', 'batchVersions', 'items', 'itemVersions', 'draft'] as const;
export type CopySet = (typeof COPY_SETS)[number];

/** How far the move has gone: its phase, and in `copy` the last set and sort key copied. */
export interface MoveState {
  phase: MovePhase;
  /** The copy step's place: the set under way and the last sort key copied of it (none: from its start). */
  copySet?: CopySet;
  copyAfter?: string;
  /** Items written into the receiver's tenant, registrations moved, items deleted from the sender's, so far. */
  copied: number;
  registrations: number;
  deleted: number;
  /** Why the last attempt stopped (a battery identifier the receiver holds already): shown on the transfer until an attempt gets past it. */
  blocked?: string;
}

/**
 * At most this many organizations a product may have belonged to before its current owner: the
 * step that switches ownership points each of their GTIN items at the new owner in one transaction
 * (DynamoDB takes 100 items; docs/transfers.md#the-printed-qr-codes).
 */
export const MAX_FORMER_OWNERS = 20;

/** A transfer as stored, the same record in the sender's and the receiver's partition (lib/data/transfers.ts). */
export interface TransferRecord {
  transferId: string;
  environment: Environment;
  status: TransferStatus;
  productId: string;
  gtin: string;
  productName: string;
  category: Category;
  from: { orgId: string };
  to: { orgId: string };
  createdAt: string;
  updatedAt: string;
  acceptedAt?: string;
  declinedAt?: string;
  cancelledAt?: string;
  completedAt?: string;
  /** The product as it was when the transfer was accepted: the record the receiver's tenant gets. */
  product?: ProductRecord;
  /** The move, from acceptance until completed. */
  move?: MoveState;
}

export const senderOf = (record: Pick<TransferRecord, 'from' | 'environment'>): Tenant => ({ orgId: record.from.orgId, environment: record.environment });
export const receiverOf = (record: Pick<TransferRecord, 'to' | 'environment'>): Tenant => ({ orgId: record.to.orgId, environment: record.environment });

export const TRANSFER_ID_PATTERN = /^tr_[0-9a-z]{20}$/;
export const transferIdSchema = z.string().regex(TRANSFER_ID_PATTERN, { error: 'transferId must be a transfer id (tr_ and 20 letters or digits).' });

/** `POST /v1/transfers`: the owning organization offers one of its products to another organization. */
export const createTransferSchema = z
  .strictObject({
    productId: z.uuid({ error: 'productId must be the id of one of your products.' }).describe('The product to transfer, with its batches, items, passport versions and registrations'),
    toOrgId: z
      .string({ error: 'toOrgId must be an organization id.' })
      .regex(/^org_[0-9A-Za-z]{1,64}$/, { error: 'toOrgId must be an organization id (org_…).' })
      .describe('The organization that becomes the economic operator responsible for the product (it accepts the transfer)'),
  })
  .meta({ id: 'TransferCreate' });
export type CreateTransfer = z.infer<typeof createTransferSchema>;

export const TRANSFER_DIRECTIONS = ['outgoing', 'incoming'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];

export const transferListQuerySchema = z.strictObject({
  direction: z
    .enum(TRANSFER_DIRECTIONS, { error: `direction must be one of: ${TRANSFER_DIRECTIONS.join(', ')}.` })
    .optional()
    .describe('outgoing: the transfers you offered; incoming: those offered to you; left out: both, in one list (oldest first)'),
  limit: cursorLimit,
  starting_after: transferIdSchema.optional().describe('The id of the last transfer of the previous page'),
});

const progressSchema = z
  .object({
    phase: z.enum(MOVE_PHASES).describe('copy, registrations or cleanup (docs/transfers.md#the-move)'),
    copied: z.number().int().describe('Items written into the receiving organization so far'),
    registrations: z.number().int().describe('Registrations moved so far'),
    deleted: z.number().int().describe("Items deleted from the sending organization so far"),
    blocked: z.string().optional().describe('Why the last attempt stopped; the receiver fixes it and accepts again'),
  })
  .meta({ id: 'TransferProgress' });

export const transferSchema = z
  .object({
    object: z.literal('transfer'),
    id: z.string(),
    status: z.enum(TRANSFER_STATUSES).describe('offered until the receiver accepts or declines or the sender cancels; accepted while the product moves; completed once it is the receiver\'s'),
    direction: z.enum(TRANSFER_DIRECTIONS).describe('outgoing: you offered it; incoming: it was offered to you'),
    productId: z.string().describe('The product, the same id in both organizations'),
    gtin: z.string(),
    productName: z.string(),
    category: z.enum(CATEGORIES),
    from: z.object({ orgId: z.string() }).describe('The sending organization'),
    to: z.object({ orgId: z.string() }).describe('The receiving organization'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    acceptedAt: z.iso.datetime().optional(),
    declinedAt: z.iso.datetime().optional(),
    cancelledAt: z.iso.datetime().optional(),
    completedAt: z.iso.datetime().optional(),
    progress: progressSchema.optional().describe('While accepted: how far the move has gone'),
  })
  .meta({ id: 'Transfer', description: 'A product transferred to another organization: a change of economic operator (docs/transfers.md)' });
export type Transfer = z.infer<typeof transferSchema>;

export const transferListSchema = z.object({ data: z.array(transferSchema), hasMore: z.boolean() }).meta({ id: 'TransferList' });

/** When a transfer was answered and finished, those of the four that happened: the stored item and the view both carry them. */
export const answeredTimes = (record: TransferRecord): Partial<Pick<TransferRecord, 'acceptedAt' | 'declinedAt' | 'cancelledAt' | 'completedAt'>> => ({
  ...(record.acceptedAt === undefined ? {} : { acceptedAt: record.acceptedAt }),
  ...(record.declinedAt === undefined ? {} : { declinedAt: record.declinedAt }),
  ...(record.cancelledAt === undefined ? {} : { cancelledAt: record.cancelledAt }),
  ...(record.completedAt === undefined ? {} : { completedAt: record.completedAt }),
});

/** A transfer as `tenant` sees it: its direction is the tenant's side of it. */
export function toTransferView(record: TransferRecord, tenant: Pick<Tenant, 'orgId'>): Transfer {
  return {
    object: 'transfer',
    id: record.transferId,
    status: record.status,
    direction: record.from.orgId === tenant.orgId ? 'outgoing' : 'incoming',
    productId: record.productId,
    gtin: record.gtin,
    productName: record.productName,
    category: record.category,
    from: { orgId: record.from.orgId },
    to: { orgId: record.to.orgId },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...answeredTimes(record),
    ...(record.status === 'accepted' && record.move
      ? {
          progress: {
            phase: record.move.phase,
            copied: record.move.copied,
            registrations: record.move.registrations,
            deleted: record.move.deleted,
            ...(record.move.blocked === undefined ? {} : { blocked: record.move.blocked }),
          },
        }
      : {}),
  };
}

/**
 * The product as the receiving organization's tenant holds it: the same product (its id, GTIN,
 * `qrCodeUrl` printed on the packaging, passport version and digest: the chain continues), now the
 * receiver's, with the organizations it belonged to before (each former owner's GTIN item points to
 * the receiver: docs/transfers.md#the-printed-qr-codes). The receiver is no former owner of its own.
 */
export function productAfterTransfer(product: ProductRecord, record: Pick<TransferRecord, 'from' | 'to'>): ProductRecord {
  const formerOwners = [...(product.formerOwners ?? []).filter((orgId) => orgId !== record.from.orgId && orgId !== record.to.orgId), record.from.orgId];
  return { ...product, orgId: record.to.orgId, formerOwners };
}

/** The organizations whose GTIN items must point at the receiver once it owns the product: every former owner but the receiver itself. */
export const pointingOwners = (product: ProductRecord, record: Pick<TransferRecord, 'from' | 'to'>): string[] =>
  productAfterTransfer(product, record).formerOwners ?? [];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (item: Record<string, unknown>, name: string): Record<string, string> => (typeof item[name] === 'string' ? { [name]: item[name] as string } : {});

function moveOf(value: unknown): MoveState | undefined {
  if (!isRecord(value) || !(MOVE_PHASES as readonly string[]).includes(String(value.phase))) return undefined;
  const count = (name: string) => (typeof value[name] === 'number' ? (value[name] as number) : 0);
  return {
    phase: value.phase as MovePhase,
    ...((COPY_SETS as readonly string[]).includes(String(value.copySet)) ? { copySet: value.copySet as CopySet } : {}),
    ...optionalString(value, 'copyAfter'),
    copied: count('copied'),
    registrations: count('registrations'),
    deleted: count('deleted'),
    ...optionalString(value, 'blocked'),
  };
}

/** A stored transfer (either copy) read back; undefined for anything else. */
export function transferFromItem(item: Record<string, unknown> | undefined, product?: (value: Record<string, unknown>) => ProductRecord): TransferRecord | undefined {
  if (!item || item.type !== 'transfer' || typeof item.transferId !== 'string' || !isRecord(item.from) || !isRecord(item.to)) return undefined;
  if (!(TRANSFER_STATUSES as readonly string[]).includes(String(item.status))) return undefined;
  const move = moveOf(item.move);
  return {
    transferId: item.transferId,
    environment: item.environment === 'test' ? 'test' : 'live',
    status: item.status as TransferStatus,
    productId: String(item.productId),
    gtin: String(item.gtin),
    productName: String(item.productName ?? ''),
    category: (CATEGORIES as readonly string[]).includes(String(item.category)) ? (item.category as Category) : 'wine',
    from: { orgId: String(item.from.orgId) },
    to: { orgId: String(item.to.orgId) },
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...optionalString(item, 'acceptedAt'),
    ...optionalString(item, 'declinedAt'),
    ...optionalString(item, 'cancelledAt'),
    ...optionalString(item, 'completedAt'),
    ...(product && isRecord(item.product) ? { product: product(item.product) } : {}),
    ...(move ? { move } : {}),
  };
}
