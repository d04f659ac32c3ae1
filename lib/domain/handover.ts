import * as z from 'zod';
import { cursorLimit } from './pagination.ts';
import { serialSchema } from './units.ts';

/**
 * A handover of a battery to its second life or to waste management (docs/battery.md#second-life,
 * docs/battery.md#a-batterys-life): the organization that
 * owns a battery's passport (the sender) offers it to another organization on the platform (the
 * recipient), naming what the recipient does to the battery. The recipient accepts by naming the
 * item of its own product that is the battery after the operation. Accepting writes, in one
 * transaction, the recipient's item linking back to the original (`lineage.predecessor`) and the
 * original recording its successor (`lineage.successors`), each with the battery status the
 * operation gives. Neither organization writes the other's records: each wrote only its own half of
 * the agreement, and the service writes the links both agreed to.
 *
 * Regulation (EU) 2023/1542 Art. 77(7) first subparagraph, read in secondary sources only
 * (docs/battery.md#sources): a battery that is prepared for re-use, prepared for repurposing,
 * repurposed or remanufactured gets a new battery passport, for which the economic operator placing
 * it on the market is responsible, linked to the passport of the original battery or batteries: a
 * second-life item may accept several handovers, one per original. Art. 77(7) second subparagraph:
 * a waste battery's passport passes to the producer, its producer responsibility organisation or a
 * waste management operator: a `waste` handover names no item of the recipient; accepting it makes
 * the recipient responsible for the original's passport (`lineage.responsible`), which it alone then
 * declares recycled (Art. 77(8)).
 */
export const SECOND_LIFE_OPERATIONS = ['repurposing', 'remanufacturing', 'preparation_for_reuse', 'preparation_for_repurposing'] as const;
export const HANDOVER_OPERATIONS = [...SECOND_LIFE_OPERATIONS, 'waste'] as const;
export type HandoverOperation = (typeof HANDOVER_OPERATIONS)[number];
export const isSecondLife = (operation: HandoverOperation): operation is (typeof SECOND_LIFE_OPERATIONS)[number] => operation !== 'waste';

/**
 * The battery status each operation gives: the Battery Pass data model's BatteryStatusEnumeration
 * (Annex XIII point 4(c)): Original, Repurposed, Reused, Remanufactured, Waste. The data model has
 * no value of its own for a battery prepared for repurposing: it becomes Repurposed (our reading of
 * Art. 3 point (30): prepared so that it can be used for a different purpose, as a repurposed one is).
 * A second-life operation gives it to both items; a waste handover to the original alone.
 */
export const STATUS_AFTER: Readonly<Record<HandoverOperation, 'Repurposed' | 'Remanufactured' | 'Reused' | 'Waste'>> = {
  repurposing: 'Repurposed',
  remanufacturing: 'Remanufactured',
  preparation_for_reuse: 'Reused',
  preparation_for_repurposing: 'Repurposed',
  waste: 'Waste',
};

export const HANDOVER_STATUSES = ['offered', 'accepted', 'cancelled'] as const;
export type HandoverStatus = (typeof HANDOVER_STATUSES)[number];

/** One side of a handover: an organization's battery item. */
export interface HandoverSide {
  orgId: string;
  productId?: string;
  gtin?: string;
  serial?: string;
  digitalLink?: string;
}

/** A handover as stored, the same on both sides (lib/data/handovers.ts). */
export interface HandoverRecord {
  handoverId: string;
  environment: 'live' | 'test';
  operation: HandoverOperation;
  status: HandoverStatus;
  from: Required<HandoverSide>;
  /** The recipient; its item once it accepted. */
  to: HandoverSide;
  createdAt: string;
  updatedAt: string;
  acceptedAt?: string;
  /** A waste handover: when its recipient declared the battery recycled. */
  recycledAt?: string;
}

const handoverIdSchema = z.string().regex(/^ho_[0-9A-Za-z_-]{1,64}$/, { error: 'handoverId must be a handover id (ho_…).' });

/** `POST /v1/handovers`: the sender offers one of its battery items to another organization. */
export const createHandoverSchema = z
  .strictObject({
    productId: z.uuid({ error: 'productId must be the id of one of your battery products.' }).describe('Your battery product'),
    serial: serialSchema.describe('The serial of the battery (an item of that product) that is handed over'),
    toOrgId: z
      .string({ error: 'toOrgId must be an organization id.' })
      .regex(/^org_[0-9A-Za-z]{1,64}$/, { error: 'toOrgId must be an organization id (org_…).' })
      .describe('The organization that repurposes, remanufactures or prepares the battery for re-use or repurposing; for waste, the producer, its producer responsibility organisation or the waste management operator'),
    operation: z
      .enum(HANDOVER_OPERATIONS, { error: `operation must be one of: ${HANDOVER_OPERATIONS.join(', ')}.` })
      .describe('What the recipient does to the battery (Regulation (EU) 2023/1542 Art. 77(7) first subparagraph), or waste: it takes over the waste battery\'s passport (Art. 77(7) second subparagraph)'),
  })
  .meta({ id: 'HandoverCreate' });
export type CreateHandover = z.infer<typeof createHandoverSchema>;

/**
 * `POST /v1/handovers/{handoverId}/accept`: the recipient names its own item that is the battery
 * after a second-life operation; a waste handover names none (an empty body).
 */
export const acceptHandoverSchema = z
  .strictObject({
    productId: z.uuid({ error: 'productId must be the id of one of your battery products.' }).optional().describe('Your battery product the battery now is (second-life operations; not for waste)'),
    serial: serialSchema.optional().describe('The serial of your item (registered beforehand with PUT …/items/{serial}) that is the battery after the operation (second-life operations; not for waste)'),
  })
  .meta({ id: 'HandoverAccept' });

export const handoverListQuerySchema = z.strictObject({
  as: z.enum(['sender', 'recipient'], { error: 'as must be sender or recipient.' }).default('sender').describe('sender (default): the handovers you offered; recipient: those offered to you'),
  limit: cursorLimit,
  starting_after: handoverIdSchema.optional(),
});

const sideSchema = z.object({
  orgId: z.string(),
  productId: z.string().optional(),
  gtin: z.string().optional(),
  serial: z.string().optional(),
  digitalLink: z.url().optional(),
});

export const handoverSchema = z
  .object({
    object: z.literal('handover'),
    id: z.string(),
    operation: z.enum(HANDOVER_OPERATIONS),
    status: z.enum(HANDOVER_STATUSES).describe('offered until the recipient accepts or the sender cancels'),
    batteryStatus: z.enum(['Repurposed', 'Remanufactured', 'Reused', 'Waste']).describe('The battery status the operation gives when accepted: both items for a second life, the original for waste'),
    from: sideSchema.describe("The sender's battery"),
    to: sideSchema.describe("The recipient; with its battery once accepted"),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    acceptedAt: z.iso.datetime().optional(),
    recycledAt: z.iso.datetime().optional().describe('A waste handover: when its recipient declared the battery recycled (Art. 77(8))'),
  })
  .meta({ id: 'Handover', description: 'A battery handed over to another organization for its second life or as waste (docs/battery.md#second-life)' });
export type Handover = z.infer<typeof handoverSchema>;

export const handoverListSchema = z.object({ data: z.array(handoverSchema), hasMore: z.boolean() }).meta({ id: 'HandoverList' });

export const toHandoverView = (record: HandoverRecord): Handover => ({
  object: 'handover',
  id: record.handoverId,
  operation: record.operation,
  status: record.status,
  batteryStatus: STATUS_AFTER[record.operation],
  from: record.from,
  to: record.to,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  ...(record.acceptedAt === undefined ? {} : { acceptedAt: record.acceptedAt }),
  ...(record.recycledAt === undefined ? {} : { recycledAt: record.recycledAt }),
});

/** Whether a stored value is a handover record (the table's items are read back through this). */
export function handoverFromItem(item: Record<string, unknown> | undefined): HandoverRecord | undefined {
  if (!item || typeof item.handoverId !== 'string' || typeof item.from !== 'object' || item.from === null) return undefined;
  return {
    handoverId: item.handoverId,
    environment: item.environment === 'test' ? 'test' : 'live',
    operation: (HANDOVER_OPERATIONS as readonly string[]).includes(String(item.operation)) ? (item.operation as HandoverOperation) : 'repurposing',
    status: (HANDOVER_STATUSES as readonly string[]).includes(String(item.status)) ? (item.status as HandoverStatus) : 'offered',
    from: item.from as Required<HandoverSide>,
    to: (item.to ?? {}) as HandoverSide,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...(typeof item.acceptedAt === 'string' ? { acceptedAt: item.acceptedAt } : {}),
    ...(typeof item.recycledAt === 'string' ? { recycledAt: item.recycledAt } : {}),
  };
}

export { handoverIdSchema };
