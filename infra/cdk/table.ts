import type { AttributeDefinition, CreateTableCommandInput, KeySchemaElement } from '@aws-sdk/client-dynamodb';
import { AttributeType, ProjectionType, StreamViewType, type Attribute, type GlobalSecondaryIndexProps } from 'aws-cdk-lib/aws-dynamodb';
import { createTableInput, TABLE } from '../../lib/data/table.ts';

/**
 * The CDK table's keys and indexes, read from the same CreateTable input the local stack uses
 * (lib/data/table.ts), so that DynamoDB Local and AWS cannot disagree.
 */
export interface TableShape {
  partitionKey: Attribute;
  sortKey?: Attribute;
  globalSecondaryIndexes: GlobalSecondaryIndexProps[];
  ttlAttribute: string;
  /** The stream's view, when the table has one (docs/webhooks-outbound.md). */
  stream?: StreamViewType;
}

export function tableShape(input: CreateTableCommandInput = createTableInput('shape')): TableShape {
  if (input.BillingMode !== 'PAY_PER_REQUEST') throw new Error('The single table is on-demand (PAY_PER_REQUEST).');
  if (input.LocalSecondaryIndexes?.length) throw new Error('Local secondary indexes are not mapped to CDK yet: add them in infra/cdk/table.ts.');
  const definitions = input.AttributeDefinitions ?? [];
  const keys = (schema: readonly KeySchemaElement[] | undefined, where: string) => {
    const hash = schema?.find((k) => k.KeyType === 'HASH');
    if (!hash?.AttributeName) throw new Error(`${where} has no partition key.`);
    const range = schema?.find((k) => k.KeyType === 'RANGE');
    return {
      partitionKey: attribute(definitions, hash.AttributeName),
      ...(range?.AttributeName ? { sortKey: attribute(definitions, range.AttributeName) } : {}),
    };
  };
  return {
    ...keys(input.KeySchema, 'The table'),
    globalSecondaryIndexes: (input.GlobalSecondaryIndexes ?? []).map((index) => {
      if (!index.IndexName) throw new Error('A global secondary index has no name.');
      const projection = index.Projection?.ProjectionType ?? 'ALL';
      return {
        indexName: index.IndexName,
        ...keys(index.KeySchema, `Index ${index.IndexName}`),
        projectionType: PROJECTIONS[projection],
        ...(index.Projection?.NonKeyAttributes?.length ? { nonKeyAttributes: index.Projection.NonKeyAttributes } : {}),
      };
    }),
    ttlAttribute: TABLE.ttlAttribute,
    ...(input.StreamSpecification?.StreamEnabled && input.StreamSpecification.StreamViewType
      ? { stream: StreamViewType[input.StreamSpecification.StreamViewType as keyof typeof StreamViewType] }
      : {}),
  };
}

const PROJECTIONS: Record<string, ProjectionType> = {
  ALL: ProjectionType.ALL,
  KEYS_ONLY: ProjectionType.KEYS_ONLY,
  INCLUDE: ProjectionType.INCLUDE,
};

const TYPES: Record<string, AttributeType> = { S: AttributeType.STRING, N: AttributeType.NUMBER, B: AttributeType.BINARY };

function attribute(definitions: readonly AttributeDefinition[], name: string): Attribute {
  const type = definitions.find((d) => d.AttributeName === name)?.AttributeType;
  const mapped = type ? TYPES[type] : undefined;
  if (!mapped) throw new Error(`Key attribute ${name} has no attribute definition.`);
  return { name, type: mapped };
}
