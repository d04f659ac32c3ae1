import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SupplierRole } from '../domain/passport.ts';
import type { Supplier } from '../domain/supplier.ts';
import type { Environment, Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { tenantPk } from './keys.ts';

/** Suppliers: `SUPPLIER#{supplierId}` in the tenant's partition; ids sort by creation time. */
const PREFIX = 'SUPPLIER#';
const supplierSk = (supplierId: string): string => `${PREFIX}${supplierId}`;

function fromItem(item: Record<string, unknown>): Supplier {
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

export async function insertSupplier(supplier: Supplier): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { PK: tenantPk(supplier), SK: supplierSk(supplier.supplierId), type: 'supplier', ...supplier },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getSupplier(tenant: Tenant, supplierId: string): Promise<Supplier | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: supplierSk(supplierId) } }));
  return Item ? fromItem(Item) : undefined;
}

/** Oldest first: `limit` suppliers after `startingAfter` (or from the first). */
export async function listSuppliers(
  tenant: Tenant,
  limit: number,
  startingAfter?: string,
): Promise<{ suppliers: Supplier[]; hasMore: boolean }> {
  const suppliers: Supplier[] = [];
  let startKey: Record<string, unknown> | undefined = startingAfter
    ? { PK: tenantPk(tenant), SK: supplierSk(startingAfter) }
    : undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantPk(tenant), ':prefix': PREFIX },
        ExclusiveStartKey: startKey,
        Limit: limit + 1 - suppliers.length,
      }),
    );
    for (const item of page.Items ?? []) suppliers.push(fromItem(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey && suppliers.length < limit + 1);
  return { suppliers: suppliers.slice(0, limit), hasMore: suppliers.length > limit };
}
