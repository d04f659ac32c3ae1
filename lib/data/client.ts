import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { sdkClientBudget } from './aws-budget.ts';
import { countDynamoCall } from './call-counts.ts';
import type { GetItem } from './public-reads.ts';

let client: DynamoDBDocumentClient | undefined;
let base: DynamoDBClient | undefined;

/** The one DynamoDB document client of this process, pointed wherever configuration says. */
export function db(): DynamoDBDocumentClient {
  if (client) return client;
  const { region, dynamodbEndpoint } = config();
  base = new DynamoDBClient({
    region,
    // At most 3 attempts of at most 2 s each: a request gives up and answers 503 in time (lib/data/aws-budget.ts).
    ...sdkClientBudget(),
    ...(dynamodbEndpoint
      ? { endpoint: dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  // Count every call this process makes: the benchmarks report calls per request.
  base.middlewareStack.add(
    (next, context) => async (args) => {
      countDynamoCall(context.commandName ?? 'unknown');
      return next(args);
    },
    { step: 'initialize', name: 'countCalls' },
  );
  client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return client;
}

/** The plain DynamoDB client under `db()`, for libraries that take one (Powertools idempotency). */
export function dynamo(): DynamoDBClient {
  db();
  return base as DynamoDBClient;
}

export const tableName = (): string => config().tableName;

/** One item by its key, through the document client (lib/data/public-reads.ts takes it). */
export const getItem: GetItem = async (key) => (await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item;
