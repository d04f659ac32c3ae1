import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Tenant } from '../domain/tenant.ts';
import { TABLE } from './table.ts';
import { dynamo, tableName } from './client.ts';
import { idempotencyPk } from './keys.ts';

/**
 * Where Powertools idempotency keeps its records: the single table, in one partition per tenant
 * (`IDEMPOTENCY#{orgId}#{env}`, the record's hash as the sort key), expiring through the table's
 * TTL attribute. A partition per tenant keeps one busy tenant from sharing a partition's write
 * capacity with all the others.
 */
const stores = new Map<string, DynamoDBPersistenceLayer>();

export function idempotencyStore(tenant: Tenant): DynamoDBPersistenceLayer {
  const pk = idempotencyPk(tenant);
  let store = stores.get(pk);
  if (!store) {
    store = new DynamoDBPersistenceLayer({
      tableName: tableName(),
      keyAttr: TABLE.partitionKey,
      sortKeyAttr: TABLE.sortKey,
      staticPkValue: pk,
      expiryAttr: TABLE.ttlAttribute,
      awsSdkV3Client: dynamo(),
    });
    stores.set(pk, store);
  }
  return store;
}
