import { underPairLimit } from '../auth/pair-rate-limit.ts';
import { eventPut } from '../data/events.ts';
import { getHandover, insertHandover, listHandovers, writeHandoverTransition } from '../data/handovers.ts';
import { getUnit, unitVersionWrites } from '../data/items.ts';
import { getOrganization } from '../data/organizations.ts';
import { getProduct } from '../data/products.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import {
  acceptHandoverSchema,
  createHandoverSchema,
  handoverIdSchema,
  STATUS_AFTER,
  toHandoverView,
  type HandoverOperation,
  type HandoverRecord,
} from '../domain/handover.ts';
import { newSortableId } from '../domain/ids.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { nextUnitVersion, unitDigitalLink, type LineageLink, type UnitRecord } from '../domain/unit.ts';
import { toUnitView } from '../domain/units.ts';
import { DuplicateError, NotFoundError, PermissionError, ValidationError } from '../http/errors.ts';
import { parseBody } from '../http/validation.ts';
import { requireUnit } from './items.ts';
import { requireProduct } from './products.ts';

/**
 * Handovers of batteries to their second life (docs/battery.md#second-life): the sender offers one
 * of its battery items to another organization; the recipient accepts by naming its own item that
 * is the battery after the operation, and the service writes the links both ways in one
 * transaction. Each organization writes only its own half: the offer (sender) and the acceptance
 * naming its own item (recipient); neither can write the other's records through this or any route.
 */

/** A product that can take part: one of the tenant's batteries, else 422 naming productId. */
async function requireBattery(tenant: Tenant, productId: string): Promise<ProductRecord> {
  const product = await requireProduct(tenant, productId, 'productId');
  if (product.category !== 'battery') {
    throw new ValidationError(`productId must name a battery product: '${productId}' is a ${product.category}.`, 'productId', 'A handover carries a battery to its second life (Regulation (EU) 2023/1542 Art. 77(6)).');
  }
  return product;
}

/** `POST /v1/handovers`: the sender offers one of its batteries; both organizations' logs get handover.offered. */
export async function offerHandover(tenant: Tenant, body: unknown, origin: Origin): Promise<HandoverRecord> {
  const input = parseBody(createHandoverSchema, body);
  if (input.toOrgId === tenant.orgId) throw new ValidationError('toOrgId must be another organization: a battery is handed over to the one that repurposes or remanufactures it.', 'toOrgId');
  const product = await requireBattery(tenant, input.productId);
  await requireUnit(tenant, product, 'item', input.serial);
  if (!(await getOrganization(input.toOrgId))) {
    throw new ValidationError(`No organization '${input.toOrgId}' on the platform.`, 'toOrgId', 'Ask the recipient for its organization id (the dashboard shows it under Settings).');
  }
  await underPairLimit(tenant.orgId, input.toOrgId);
  const now = new Date().toISOString();
  const record: HandoverRecord = {
    handoverId: newSortableId('ho'),
    environment: tenant.environment,
    operation: input.operation,
    status: 'offered',
    from: { orgId: tenant.orgId, productId: product.productId, gtin: product.gtin, serial: input.serial, digitalLink: unitDigitalLink(product.qrCodeUrl, 'item', input.serial) },
    to: { orgId: input.toOrgId },
    createdAt: now,
    updatedAt: now,
  };
  const view = toHandoverView(record);
  const recipient: Tenant = { orgId: input.toOrgId, environment: tenant.environment };
  await insertHandover(record, [
    eventPut(tenant, newEvent('handover.offered', view, origin, now)),
    eventPut(recipient, newEvent('handover.offered', view, systemOrigin(record), now)),
  ]);
  return record;
}

/** The other side's events are the service's own work, in the handover's name: one organization's key id never shows in the other's log. */
const systemOrigin = (record: HandoverRecord): Origin => ({ actor: { type: 'system', id: record.handoverId }, requestId: null });

/** A handover the tenant is a party to, and which side it is; 404 for anyone else. */
async function requireHandover(tenant: Tenant, handoverId: string, consistent = false) {
  // A path segment that cannot be a handover id is not looked up (its length is unbounded).
  const found = handoverIdSchema.safeParse(handoverId).success ? await getHandover(tenant, handoverId, consistent) : undefined;
  if (!found) throw new NotFoundError(`No handover '${handoverId}'.`, { param: 'handoverId' });
  return found;
}

export const readHandover = async (tenant: Tenant, handoverId: string): Promise<HandoverRecord> => (await requireHandover(tenant, handoverId)).record;

export const listHandoversOf = (tenant: Tenant, as: 'sender' | 'recipient', limit: number, startingAfter?: string) =>
  listHandovers(tenant, as === 'sender' ? 'out' : 'in', limit, startingAfter);

const notOffered = (record: HandoverRecord) =>
  new DuplicateError(`The handover '${record.handoverId}' is ${record.status}: only an offered handover can be accepted or cancelled.`, { param: 'handoverId' });

/** A battery's data with its status set as the operation leaves it (Annex XIII point 4(c)). */
function withBatteryStatus(data: Record<string, unknown>, operation: HandoverOperation): Record<string, unknown> {
  const general = typeof data.generalProductInformation === 'object' && data.generalProductInformation !== null ? (data.generalProductInformation as Record<string, unknown>) : {};
  return { ...data, generalProductInformation: { ...general, batteryStatus: STATUS_AFTER[operation] } };
}

const ATTEMPTS = 3;

/**
 * `POST /v1/handovers/{handoverId}/accept`: the recipient names its item; the original records its
 * successor and the recipient's item its predecessor, both with the battery status the operation
 * gives, each a new version of its digest chain, with the handover accepted and each side's events,
 * all in one transaction.
 */
export async function acceptHandover(tenant: Tenant, handoverId: string, body: unknown, origin: Origin): Promise<{ handover: HandoverRecord; item: UnitRecord; product: ProductRecord }> {
  const input = parseBody(acceptHandoverSchema, body);
  for (let attempt = 1; ; attempt++) {
    const { record, side } = await requireHandover(tenant, handoverId, true);
    if (side === 'out') throw new PermissionError('Only the recipient accepts a handover: the sender may cancel it (DELETE /v1/handovers/{handoverId}).');
    if (record.status !== 'offered') throw notOffered(record);
    const product = await requireBattery(tenant, input.productId);
    const mine = await getUnit(tenant, 'item', product.gtin, input.serial, true);
    if (!mine) await requireUnit(tenant, product, 'item', input.serial);
    if (mine?.lineage?.predecessor) {
      throw new DuplicateError(`The item '${input.serial}' already names the battery it was made from (handover ${mine.lineage.predecessor.handoverId}).`, { param: 'serial' });
    }
    const sender: Tenant = { orgId: record.from.orgId, environment: record.environment };
    const originalProduct = await getProduct(sender, record.from.productId, true);
    const original = originalProduct ? await getUnit(sender, 'item', originalProduct.gtin, record.from.serial, true) : undefined;
    if (!originalProduct || !original || !mine) throw new DuplicateError('The original battery is no longer registered by its sender; the handover cannot be accepted.', { param: 'handoverId' });

    const now = new Date().toISOString();
    const link = (digitalLink: string): LineageLink => ({ digitalLink, operation: record.operation, handoverId: record.handoverId, at: now });
    const myLink = unitDigitalLink(product.qrCodeUrl, 'item', input.serial);
    const nextMine = nextUnitVersion(
      { kind: 'item', productId: product.productId, gtin: product.gtin, value: input.serial },
      mine,
      { ...(mine.lot === undefined ? {} : { lot: mine.lot }), status: mine.status, data: withBatteryStatus(mine.data, record.operation) },
      now,
      undefined,
      { ...mine.lineage, predecessor: link(unitDigitalLink(originalProduct.qrCodeUrl, 'item', record.from.serial)) },
    );
    const nextOriginal = nextUnitVersion(
      { kind: 'item', productId: originalProduct.productId, gtin: originalProduct.gtin, value: record.from.serial },
      original,
      { ...(original.lot === undefined ? {} : { lot: original.lot }), status: original.status, data: withBatteryStatus(original.data, record.operation) },
      now,
      undefined,
      { ...original.lineage, successors: [...(original.lineage?.successors ?? []), link(myLink)] },
    );
    const accepted: HandoverRecord = {
      ...record,
      status: 'accepted',
      to: { orgId: tenant.orgId, productId: product.productId, gtin: product.gtin, serial: input.serial, digitalLink: myLink },
      updatedAt: now,
      acceptedAt: now,
    };
    const view = toHandoverView(accepted);
    const written = await writeHandoverTransition(accepted, [
      ...unitVersionWrites(tenant, mine, nextMine),
      ...unitVersionWrites(sender, original, nextOriginal),
      eventPut(tenant, newEvent('handover.accepted', view, origin, now)),
      eventPut(tenant, newEvent('item.updated', toUnitView(nextMine, product.qrCodeUrl), origin, now)),
      eventPut(sender, newEvent('handover.accepted', view, systemOrigin(record), now)),
      eventPut(sender, newEvent('item.updated', toUnitView(nextOriginal, originalProduct.qrCodeUrl), systemOrigin(record), now)),
    ]);
    if (written) return { handover: accepted, item: nextMine, product };
    // The handover moved on, or one of the two items changed meanwhile: decide again from what is stored.
    if (attempt >= ATTEMPTS) throw new DuplicateError('The handover or one of its batteries kept changing while this request ran; retry.', { param: 'handoverId' });
  }
}

/** `DELETE /v1/handovers/{handoverId}`: the sender withdraws an offer not yet accepted. */
export async function cancelHandover(tenant: Tenant, handoverId: string, origin: Origin): Promise<HandoverRecord> {
  const { record, side } = await requireHandover(tenant, handoverId, true);
  if (side === 'in') throw new PermissionError('Only the sender cancels a handover: the recipient accepts it or leaves it.');
  if (record.status === 'cancelled') return record;
  if (record.status !== 'offered') throw notOffered(record);
  await underPairLimit(tenant.orgId, record.to.orgId);
  const now = new Date().toISOString();
  const cancelled: HandoverRecord = { ...record, status: 'cancelled', updatedAt: now };
  const view = toHandoverView(cancelled);
  const recipient: Tenant = { orgId: record.to.orgId, environment: record.environment };
  const written = await writeHandoverTransition(cancelled, [
    eventPut(tenant, newEvent('handover.cancelled', view, origin, now)),
    eventPut(recipient, newEvent('handover.cancelled', view, systemOrigin(record), now)),
  ]);
  if (!written) throw notOffered((await requireHandover(tenant, handoverId, true)).record);
  return cancelled;
}
