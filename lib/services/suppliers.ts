import { eventPut } from '../data/events.ts';
import { findSupplierIdByName, insertSupplier } from '../data/suppliers.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { newSortableId } from '../domain/ids.ts';
import { toSupplierView, type CreateSupplierInput, type SupplierRecord } from '../domain/supplier.ts';
import type { Tenant } from '../domain/tenant.ts';

const newSupplier = (tenant: Tenant, input: CreateSupplierInput, now: string): SupplierRecord => ({
  supplierId: newSortableId('sup'),
  ...tenant,
  name: input.name,
  role: input.role,
  ...(input.country === undefined ? {} : { country: input.country }),
  ...(input.vatNumber === undefined ? {} : { vatNumber: input.vatNumber }),
  createdAt: now,
});

/** Registers a supplier, with its `supplier.created` event in the same transaction (docs/lifecycle.md#event-log). */
export async function createSupplier(tenant: Tenant, input: CreateSupplierInput, origin: Origin, now = new Date().toISOString()): Promise<SupplierRecord> {
  const supplier = newSupplier(tenant, input, now);
  await insertSupplier(supplier, false, [eventPut(tenant, newEvent('supplier.created', toSupplierView(supplier), origin, now))]);
  return supplier;
}

/**
 * Makes sure the tenant has a supplier of this name, creating it (as a producer, with its
 * `supplier.created` event in the same transaction) when there is none, and returns its id.
 * Concurrent callers naming the same new supplier end with one supplier between them.
 */
export async function ensureSupplierNamed(tenant: Tenant, name: string, origin: Origin): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const existingId = await findSupplierIdByName(tenant, name);
    if (existingId) return existingId;
    const now = new Date().toISOString();
    const supplier = newSupplier(tenant, { name, role: 'producer' }, now);
    const event = newEvent('supplier.created', toSupplierView(supplier), origin, now);
    if ((await insertSupplier(supplier, true, [eventPut(tenant, event)])) === 'created') return supplier.supplierId;
  }
  throw new Error(`Could not create or find the supplier named ${name}`);
}
