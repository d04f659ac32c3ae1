import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's key schema, shared by the CDK stack and the local stack so that the two
 * cannot disagree. Every item has a string `PK` and `SK`; `expiresAt` (epoch seconds) is the
 * TTL attribute.
 */
export const TABLE = {
  partitionKey: 'PK',
  sortKey: 'SK',
  ttlAttribute: 'expiresAt',
} as const;

/**
 * The one global secondary index, sparse: only items that carry `GSI1PK` are in it, today the
 * event log's items (keyed by tenant and event type, lib/data/keys.ts), so that a page of one type
 * reads that page and no more (docs/decisions.md#events-by-type-a-sparse-index). Its sort key is
 * the table's `SK`; every attribute is projected, so a page needs no second read.
 */
export const GSI1 = { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: TABLE.sortKey } as const;

export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: TABLE.partitionKey, AttributeType: 'S' },
      { AttributeName: TABLE.sortKey, AttributeType: 'S' },
      { AttributeName: GSI1.partitionKey, AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: GSI1.name,
        KeySchema: [
          { AttributeName: GSI1.partitionKey, KeyType: 'HASH' },
          { AttributeName: GSI1.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    // New images feed the outbound webhooks' fan-out, filtered to event-log items (docs/webhooks-outbound.md).
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
  };
}
