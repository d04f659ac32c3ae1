import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { SupplierRole } from '../domain/passport.ts';
import type { SupplierRecord } from '../domain/supplier.ts';
import type { Environment, Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons } from './errors.ts';
import { SUPPLIER_PREFIX, supplierNameSk, supplierSk, tenantPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew, type TransactItem } from './writes.ts';

/**
 * Suppliers, in the tenant's partition:
 * - `SUPPLIER#{supplierId}`: the supplier; ids sort by creation time.
 * - `SUPPLIERNAME#{normalized name}`: the first supplier of that name, so that webhook deliveries
 *   naming a producer reuse it instead of creating another.
 */
function fromItem(item: Record<string, unknown>): SupplierRecord {
  return {
    supplierId: String(item.supplierId),
    orgId: String(item.orgId),
    environment: item.environment as Environment,
    name: String(item.name),
    role: item.role as SupplierRole,
    ...(typeof item.country === 'string' ? { country: item.country } : {}),
    ...(typeof item.vatNumber === 'string' ? { vatNumber: item.vatNumber } : {}),
    createdAt: String(item.createdAt),
  };
}

/**
 * Writes the supplier and, in the same transaction, claims its name. With `exclusiveName`, the
 * write fails ('name-taken') when another supplier already holds the name; without it, the
 * supplier is written either way and the name keeps its first holder. `extra` joins the same
 * transaction (the supplier's event, docs/lifecycle.md#event-log).
 */
export async function insertSupplier(supplier: SupplierRecord, exclusiveName = false, extra: TransactItem[] = []): Promise<'created' | 'name-taken'> {
  const pk = tenantPk(supplier);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          putNew({ PK: pk, SK: supplierSk(supplier.supplierId), type: 'supplier', ...supplier }),
          exclusiveName
            ? putNew({ PK: pk, SK: supplierNameSk(supplier.name), type: 'supplierName', supplierId: supplier.supplierId })
            : {
                Update: {
                  TableName: tableName(),
                  Key: { PK: pk, SK: supplierNameSk(supplier.name) },
                  UpdateExpression: 'SET #type = :type, supplierId = if_not_exists(supplierId, :id)',
                  ExpressionAttributeNames: { '#type': 'type' },
                  ExpressionAttributeValues: { ':type': 'supplierName', ':id': supplier.supplierId },
                },
              },
          ...extra,
        ],
      }),
    );
    return 'created';
  } catch (error) {
    if (exclusiveName && cancellationReasons(error)[1]?.Code === 'ConditionalCheckFailed') return 'name-taken';
    throw error;
  }
}

/** The id of the first supplier the tenant registered under `name` (case and spacing ignored). */
export async function findSupplierIdByName(tenant: Tenant, name: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: supplierNameSk(name) } }));
  return typeof Item?.supplierId === 'string' ? Item.supplierId : undefined;
}

export async function getSupplier(tenant: Tenant, supplierId: string): Promise<SupplierRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: supplierSk(supplierId) } }));
  return Item ? fromItem(Item) : undefined;
}

/** Oldest first: `limit` suppliers after `startingAfter` (or from the first). */
export async function listSuppliers(
  tenant: Tenant,
  limit: number,
  startingAfter?: string,
): Promise<{ suppliers: SupplierRecord[]; hasMore: boolean }> {
  const pk = tenantPk(tenant);
  const page = await queryItems(beginsWith(pk, SUPPLIER_PREFIX), {
    limit,
    ...(startingAfter ? { startKey: { PK: pk, SK: supplierSk(startingAfter) } } : {}),
  });
  return { suppliers: page.items.map(fromItem), hasMore: page.hasMore };
}
