import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

let client: DynamoDBDocumentClient | undefined;
let base: DynamoDBClient | undefined;
let calls = 0;
const callsByCommand = new Map<string, number>();

/** The one DynamoDB document client of this process, pointed wherever configuration says. */
export function db(): DynamoDBDocumentClient {
  if (client) return client;
  const { region, dynamodbEndpoint } = config();
  base = new DynamoDBClient({
    region,
    ...(dynamodbEndpoint
      ? { endpoint: dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  // Count every call this process makes: the benchmarks report calls per request.
  base.middlewareStack.add(
    (next, context) => async (args) => {
      calls++;
      const command = context.commandName ?? 'unknown';
      callsByCommand.set(command, (callsByCommand.get(command) ?? 0) + 1);
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

/** DynamoDB calls made by this process so far. */
export const dynamoCallCount = (): number => calls;

/** The same, by command (`GetItemCommand`, `UpdateItemCommand`, …). */
export const dynamoCallCounts = (): Record<string, number> => Object.fromEntries(callsByCommand);
