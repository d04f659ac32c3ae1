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

export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: TABLE.partitionKey, AttributeType: 'S' },
      { AttributeName: TABLE.sortKey, AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
    // New images feed the outbound webhooks' fan-out, filtered to event-log items (docs/webhooks-outbound.md).
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
  };
}
