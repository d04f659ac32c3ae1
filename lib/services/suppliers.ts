import { insertSupplier } from '../data/suppliers.ts';
import { newSortableId } from '../domain/ids.ts';
import type { CreateSupplierInput, Supplier } from '../domain/supplier.ts';
import type { Tenant } from '../domain/tenant.ts';

export async function createSupplier(tenant: Tenant, input: CreateSupplierInput, now = new Date().toISOString()): Promise<Supplier> {
  const supplier: Supplier = {
    supplierId: newSortableId('sup'),
    ...tenant,
    name: input.name,
    role: input.role,
    ...(input.country === undefined ? {} : { country: input.country }),
    ...(input.vatNumber === undefined ? {} : { vatNumber: input.vatNumber }),
    createdAt: now,
  };
  await insertSupplier(supplier);
  return supplier;
}
