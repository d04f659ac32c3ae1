import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { READINESS_PROBE_KEY } from './keys.ts';

/**
 * Readiness (GET /ready, docs/api.md#when-a-dependency-is-down): does each dependency answer
 * within READY_TIMEOUT_MS, one attempt each, all at once? The table with a GetItem of a key that is
 * never written, each queue with GetQueueAttributes. What it reports is the dependency's name and
 * the error's name or code, never a URL, an account id or a message.
 */
export const READY_TIMEOUT_MS = 1000;
/** Against the local emulators, which pause for longer on a busy machine (as lib/config.ts's attempt cut-offs). */
export const LOCAL_READY_TIMEOUT_MS = 3000;

/** The time a check waits for an answer: local endpoints get longer. */
export const readyTimeoutMs = (target: Pick<ReadinessTarget, 'dynamodbEndpoint'> = targetOfConfig()): number =>
  target.dynamodbEndpoint ? LOCAL_READY_TIMEOUT_MS : READY_TIMEOUT_MS;

export type DependencyName = 'table' | 'scanQueue' | 'importQueue' | 'deliveryQueue';

export interface DependencyCheck {
  name: DependencyName;
  ok: boolean;
  /** Why it failed: the error's name or code (`ECONNREFUSED`, `TimeoutError`, `ResourceNotFoundException`). */
  reason?: string;
}

/** Where the dependencies are (the local stack passes its own; the function its configuration). */
export interface ReadinessTarget {
  region: string;
  tableName: string;
  dynamodbEndpoint?: string;
  sqsEndpoint?: string;
  queues: Partial<Record<Exclude<DependencyName, 'table'>, string>>;
}

const targetOfConfig = (): ReadinessTarget => {
  const c = config();
  return {
    region: c.region,
    tableName: c.tableName,
    ...(c.dynamodbEndpoint ? { dynamodbEndpoint: c.dynamodbEndpoint } : {}),
    ...(c.sqsEndpoint ? { sqsEndpoint: c.sqsEndpoint } : {}),
    queues: { scanQueue: c.scanQueueUrl, importQueue: c.importQueueUrl, deliveryQueue: c.eventDeliveryQueueUrl },
  };
};

/** One attempt, cut off after `timeoutMs`: readiness is about answering now. */
const probeOptions = (endpoint: string | undefined, timeoutMs: number) => ({
  maxAttempts: 1,
  requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, throwOnRequestTimeout: true },
  ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
});

const clients = new Map<string, { dynamodb: DynamoDBClient; sqs: SQSClient }>();
function clientsOf(target: ReadinessTarget) {
  const id = `${target.region}|${target.dynamodbEndpoint ?? ''}|${target.sqsEndpoint ?? ''}`;
  let found = clients.get(id);
  if (!found) {
    const timeoutMs = readyTimeoutMs(target);
    found = {
      dynamodb: new DynamoDBClient({ region: target.region, ...probeOptions(target.dynamodbEndpoint, timeoutMs) }),
      // Local queue URLs name a host that need not resolve: send to the configured endpoint.
      sqs: new SQSClient({ region: target.region, ...probeOptions(target.sqsEndpoint, timeoutMs), ...(target.sqsEndpoint ? { useQueueUrlAsEndpoint: false } : {}) }),
    };
    clients.set(id, found);
  }
  return found;
}

const reasonOf = (error: unknown): string => {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; code?: unknown };
  if (typeof e.code === 'string') return e.code;
  return typeof e.name === 'string' ? e.name : 'Error';
};

async function check(name: DependencyName, probe: () => Promise<unknown>): Promise<DependencyCheck> {
  try {
    await probe();
    return { name, ok: true };
  } catch (error) {
    return { name, ok: false, reason: reasonOf(error) };
  }
}

/** Every dependency's check, at once: the table and each configured queue. */
export async function checkDependencies(target: ReadinessTarget = targetOfConfig()): Promise<DependencyCheck[]> {
  const { dynamodb, sqs } = clientsOf(target);
  const queues = Object.entries(target.queues).filter((entry): entry is [Exclude<DependencyName, 'table'>, string] => typeof entry[1] === 'string');
  return Promise.all([
    check('table', () => dynamodb.send(new GetItemCommand({ TableName: target.tableName, Key: { PK: { S: READINESS_PROBE_KEY.PK }, SK: { S: READINESS_PROBE_KEY.SK } } }))),
    ...queues.map(([name, url]) => check(name, () => sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] })))),
  ]);
}
