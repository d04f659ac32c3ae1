import { underPairLimit } from '../auth/pair-rate-limit.ts';
import { eventPut } from '../data/events.ts';
import { getHandover, insertHandover, listHandovers, writeHandoverRecycled, writeHandoverTransition } from '../data/handovers.ts';
import { getUnit, unitVersionWrites } from '../data/items.ts';
import { getOrganization } from '../data/organizations.ts';
import { getProduct } from '../data/products.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import {
  acceptHandoverSchema,
  createHandoverSchema,
  handoverIdSchema,
  isSecondLife,
  STATUS_AFTER,
  toHandoverView,
  type HandoverRecord,
} from '../domain/handover.ts';
import { canMove, invalidMove, lifecycleStateOf, predecessorsOf, withBatteryStatus, type LifecycleState } from '../domain/battery/lifecycle.ts';
import { newSortableId } from '../domain/ids.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { nextUnitVersion, unitDigitalLink, type LineageLink, type UnitRecord } from '../domain/unit.ts';
import { toUnitView } from '../domain/units.ts';
import { ConflictError, DuplicateError, NotFoundError, PermissionError, ValidationError } from '../http/errors.ts';
import { parseBody } from '../http/validation.ts';
import { requireUnit } from './items.ts';
import { requireProduct } from './products.ts';
import { cachedRegistrySettings, lifecycleWrites } from './registrations.ts';

/**
 * Handovers of batteries to their second life or to waste management (docs/battery.md#second-life,
 * docs/battery.md#a-batterys-life): the sender offers one
 * of its battery items to another organization; the recipient accepts by naming its own item that
 * is the battery after the operation, and the service writes the links both ways in one
 * transaction. Each organization writes only its own half: the offer (sender) and the acceptance
 * naming its own item (recipient); neither can write the other's records through this or any route.
 */

/** A product that can take part: one of the tenant's batteries, else 422 naming productId. */
async function requireBattery(tenant: Tenant, productId: string): Promise<ProductRecord> {
  const product = await requireProduct(tenant, productId, 'productId');
  if (product.category !== 'battery') {
    throw new ValidationError(`productId must name a battery product: '${productId}' is a ${product.category}.`, 'productId', 'A handover carries a battery to its second life or to waste management (Regulation (EU) 2023/1542 Art. 77(7)).');
  }
  return product;
}

/** `POST /v1/handovers`: the sender offers one of its batteries; both organizations' logs get handover.offered. */
export async function offerHandover(tenant: Tenant, body: unknown, origin: Origin): Promise<HandoverRecord> {
  const input = parseBody(createHandoverSchema, body);
  if (input.toOrgId === tenant.orgId) throw new ValidationError('toOrgId must be another organization: a battery is handed over to the one that repurposes or remanufactures it.', 'toOrgId');
  const product = await requireBattery(tenant, input.productId);
  requireMove(await requireUnit(tenant, product, 'item', input.serial), STATUS_AFTER[input.operation], 'serial');
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

const ATTEMPTS = 3;

/** 409 naming both states when the battery's life does not allow the move (docs/battery.md#a-batterys-life). */
function requireMove(unit: UnitRecord, to: LifecycleState, param: string): void {
  const from = lifecycleStateOf(unit);
  if (unit.lineage?.responsible && to !== 'Recycled') {
    throw new ConflictError(`${invalidMove(from, to)} Its passport is the responsibility of ${unit.lineage.responsible.orgId} since handover ${unit.lineage.responsible.handoverId}.`, { param });
  }
  if (!canMove(from, to)) throw new ConflictError(invalidMove(from, to), { param });
}

/**
 * `POST /v1/handovers/{handoverId}/accept`. A second-life operation: the recipient names its item;
 * the original records its successor and the recipient's item one more predecessor (a pack may be
 * made of several originals), both with the battery status the operation gives. A waste handover:
 * the original becomes Waste and names the recipient responsible for its passport. Each item a new
 * version of its digest chain, with the handover accepted and each side's events, all in one
 * transaction.
 */
export async function acceptHandover(tenant: Tenant, handoverId: string, body: unknown, origin: Origin): Promise<{ handover: HandoverRecord; item: UnitRecord; product: ProductRecord; itemTenant: Tenant }> {
  const input = parseBody(acceptHandoverSchema, body ?? {});
  for (let attempt = 1; ; attempt++) {
    const { record, side } = await requireHandover(tenant, handoverId, true);
    if (side === 'out') throw new PermissionError('Only the recipient accepts a handover: the sender may cancel it (DELETE /v1/handovers/{handoverId}).');
    if (record.status !== 'offered') throw notOffered(record);
    const sender: Tenant = { orgId: record.from.orgId, environment: record.environment };
    const after = STATUS_AFTER[record.operation];
    const now = new Date().toISOString();
    const link = (digitalLink: string): LineageLink => ({ digitalLink, operation: record.operation, handoverId: record.handoverId, at: now });

    if (!isSecondLife(record.operation)) {
      if (input.productId !== undefined || input.serial !== undefined) {
        throw new ValidationError('A waste handover names no item of yours: accept it with an empty body; you become responsible for the original battery\'s passport.', input.productId !== undefined ? 'productId' : 'serial');
      }
      const originalProduct = await getProduct(sender, record.from.productId, true);
      const original = originalProduct ? await getUnit(sender, 'item', originalProduct.gtin, record.from.serial, true) : undefined;
      if (!originalProduct || !original) throw new DuplicateError('The original battery is no longer registered by its sender; the handover cannot be accepted.', { param: 'handoverId' });
      requireMove(original, 'Waste', 'handoverId');
      await underPairLimit(tenant.orgId, record.from.orgId);
      const nextOriginal = nextUnitVersion(
        { kind: 'item', productId: originalProduct.productId, gtin: originalProduct.gtin, value: record.from.serial },
        original,
        { ...(original.lot === undefined ? {} : { lot: original.lot }), status: original.status, data: withBatteryStatus(original.data, after) },
        now,
        undefined,
        { ...original.lineage, responsible: { orgId: tenant.orgId, handoverId: record.handoverId, at: now } },
      );
      const accepted: HandoverRecord = { ...record, status: 'accepted', to: { orgId: tenant.orgId }, updatedAt: now, acceptedAt: now };
      const view = toHandoverView(accepted);
      const written = await writeHandoverTransition(accepted, [
        ...unitVersionWrites(sender, original, nextOriginal),
        eventPut(tenant, newEvent('handover.accepted', view, origin, now)),
        eventPut(sender, newEvent('handover.accepted', view, systemOrigin(record), now)),
        eventPut(sender, newEvent('item.updated', toUnitView(nextOriginal, originalProduct.qrCodeUrl), systemOrigin(record), now)),
      ]);
      if (written) return { handover: accepted, item: nextOriginal, product: originalProduct, itemTenant: sender };
      if (attempt >= ATTEMPTS) throw new ConflictError('The handover or its battery kept changing while this request ran; retry.', { param: 'handoverId' });
      continue;
    }

    if (input.productId === undefined) throw new ValidationError('productId is required: name your battery product the battery now is.', 'productId');
    if (input.serial === undefined) throw new ValidationError('serial is required: name your item (registered with PUT …/items/{serial}) that is the battery after the operation.', 'serial');
    const product = await requireBattery(tenant, input.productId);
    const mine = await getUnit(tenant, 'item', product.gtin, input.serial, true);
    if (!mine) await requireUnit(tenant, product, 'item', input.serial);
    const originalProduct = await getProduct(sender, record.from.productId, true);
    const original = originalProduct ? await getUnit(sender, 'item', originalProduct.gtin, record.from.serial, true) : undefined;
    if (!originalProduct || !original || !mine) throw new DuplicateError('The original battery is no longer registered by its sender; the handover cannot be accepted.', { param: 'handoverId' });
    requireMove(mine, after, 'serial');
    requireMove(original, after, 'handoverId');
    // Accepting writes the sender's battery too: a cross-organization action (docs/battery.md#second-life).
    await underPairLimit(tenant.orgId, record.from.orgId);

    const myLink = unitDigitalLink(product.qrCodeUrl, 'item', input.serial);
    const nextMine = nextUnitVersion(
      { kind: 'item', productId: product.productId, gtin: product.gtin, value: input.serial },
      mine,
      { ...(mine.lot === undefined ? {} : { lot: mine.lot }), status: mine.status, data: withBatteryStatus(mine.data, after) },
      now,
      undefined,
      { ...mine.lineage, predecessor: [...predecessorsOf(mine.lineage), link(unitDigitalLink(originalProduct.qrCodeUrl, 'item', record.from.serial))] },
    );
    const nextOriginal = nextUnitVersion(
      { kind: 'item', productId: originalProduct.productId, gtin: originalProduct.gtin, value: record.from.serial },
      original,
      { ...(original.lot === undefined ? {} : { lot: original.lot }), status: original.status, data: withBatteryStatus(original.data, after) },
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
    if (written) return { handover: accepted, item: nextMine, product, itemTenant: tenant };
    // The handover moved on, or one of the two items changed meanwhile: decide again from what is stored.
    if (attempt >= ATTEMPTS) throw new ConflictError('The handover or one of its batteries kept changing while this request ran; retry.', { param: 'handoverId' });
  }
}

/**
 * `POST /v1/handovers/{handoverId}/recycle`: the organization a waste handover made responsible
 * declares the battery recycled (Art. 77(8)): the battery's last version records it
 * (`lineage.recycled`), its passport ceases (its Digital Link answers 410 with a page that says the
 * battery was recycled), both logs get item.recycled, in one transaction.
 */
export async function recycleBattery(tenant: Tenant, handoverId: string, origin: Origin): Promise<{ handover: HandoverRecord; item: UnitRecord; product: ProductRecord; itemTenant: Tenant }> {
  for (let attempt = 1; ; attempt++) {
    const { record, side } = await requireHandover(tenant, handoverId, true);
    if (record.operation !== 'waste') throw new ValidationError(`The handover '${handoverId}' is for ${record.operation}: a battery is declared recycled through the waste handover that made you responsible for it.`, 'handoverId');
    if (side === 'out') throw new PermissionError('Only the organization responsible for the waste battery (the recipient of the waste handover) declares it recycled.');
    if (record.status !== 'accepted') throw new DuplicateError(`The waste handover '${handoverId}' is ${record.status}: accept it first.`, { param: 'handoverId' });
    const owner: Tenant = { orgId: record.from.orgId, environment: record.environment };
    const product = await getProduct(owner, record.from.productId, true);
    const item = product ? await getUnit(owner, 'item', product.gtin, record.from.serial, true) : undefined;
    if (!product || !item) throw new DuplicateError('The battery is no longer registered by its producer; it cannot be declared recycled here.', { param: 'handoverId' });
    if (item.lineage?.responsible?.handoverId !== record.handoverId) throw new PermissionError('Another organization is responsible for this battery\'s passport now.');
    const from = lifecycleStateOf(item);
    if (!canMove(from, 'Recycled')) throw new ConflictError(invalidMove(from, 'Recycled'), { param: 'handoverId' });
    await underPairLimit(tenant.orgId, record.from.orgId);
    const now = new Date().toISOString();
    const next = nextUnitVersion(
      { kind: 'item', productId: product.productId, gtin: product.gtin, value: record.from.serial },
      item,
      { ...(item.lot === undefined ? {} : { lot: item.lot }), status: item.status, data: item.data },
      now,
      undefined,
      { ...item.lineage, recycled: { orgId: tenant.orgId, handoverId: record.handoverId, at: now } },
    );
    const recycled: HandoverRecord = { ...record, updatedAt: now, recycledAt: now };
    const itemView = toUnitView(next, product.qrCodeUrl);
    // Its registry entry is deactivated (docs/registry.md#lifecycle), in the same transaction.
    const registration = await lifecycleWrites(owner, await cachedRegistrySettings(owner), product, next, true, now, systemOrigin(record));
    const written = await writeHandoverRecycled(recycled, [
      ...unitVersionWrites(owner, item, next),
      ...registration,
      eventPut(tenant, newEvent('item.recycled', itemView, origin, now)),
      eventPut(owner, newEvent('item.recycled', itemView, systemOrigin(record), now)),
    ]);
    if (written) return { handover: recycled, item: next, product, itemTenant: owner };
    if (attempt >= ATTEMPTS) throw new ConflictError('The handover or its battery kept changing while this request ran; retry.', { param: 'handoverId' });
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
