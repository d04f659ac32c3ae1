import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * A loopback stand-in for DynamoDB and SQS as the scan path calls them (lib/data/aws-json.ts): one
 * HTTP server speaking the AWS JSON 1.0 protocol: GetItem, BatchGetItem, PutItem and SendMessage. Its interface
 * follows aws-sdk-client-mock's, so that tests read the same: `on(operation, match?).resolves(answer)`
 * with the answer in document form (`{ Item }`), `calls(operation?)`, `reset()`, `resetHistory()`.
 * Unlike a mocked SDK client, every call goes through the real client: signing, HTTP, JSON.
 */

type Operation = 'GetItem' | 'BatchGetItem' | 'PutItem' | 'SendMessage';

/** One call the fake received: its operation, its input (a GetItem's `Key`, a BatchGetItem's `Keys`, unmarshalled) and headers. */
export interface FakeCall {
  operation: Operation;
  input: Record<string, unknown> & { Key?: Record<string, unknown>; Keys?: Record<string, unknown>[]; MessageBody?: string; QueueUrl?: string };
  headers: IncomingHttpHeaders;
}

interface Rule {
  operation: Operation;
  match?: Record<string, unknown>;
  answer: { status: number; body: Record<string, unknown> };
}

/** Whether every member of `match` equals the input's (deeply, by JSON). */
const matches = (match: Record<string, unknown> | undefined, input: Record<string, unknown>): boolean =>
  !match || Object.entries(match).every(([name, value]) => JSON.stringify(input[name]) === JSON.stringify(value));

export class FakeAwsService {
  #rules: Rule[] = [];
  #calls: FakeCall[] = [];

  constructor(readonly operations: readonly Operation[]) {}

  /** Answers `operation` (for inputs whose members equal `match`'s) from now on; the latest matching rule wins. */
  on(operation: Operation, match?: Record<string, unknown>) {
    return {
      resolves: (answer: Record<string, unknown>): this => {
        this.#rules.push({ operation, ...(match ? { match } : {}), answer: { status: 200, body: answer } });
        return this;
      },
      /** Answers with an AWS error (`__type` and message) and an HTTP status. */
      rejects: (name: string, status = 400): this => {
        this.#rules.push({ operation, ...(match ? { match } : {}), answer: { status, body: { __type: `com.amazonaws#${name}`, message: `${name} (fake)` } } });
        return this;
      },
    };
  }

  calls(operation?: Operation): FakeCall[] {
    return this.#calls.filter((c) => operation === undefined || c.operation === operation);
  }

  reset(): void {
    this.#rules = [];
    this.#calls = [];
  }

  resetHistory(): void {
    this.#calls = [];
  }

  /** The answer to one request, recording it. */
  answer(operation: Operation, raw: Record<string, unknown>, headers: IncomingHttpHeaders): { status: number; body: Record<string, unknown> } {
    if (operation === 'BatchGetItem') return this.#batchGet(raw, headers);
    const input = raw.Key ? { ...raw, Key: unmarshall(raw.Key as Record<string, AttributeValue>) } : raw;
    this.#calls.push({ operation, input, headers });
    const rule = this.#rules.findLast((r) => r.operation === operation && matches(r.match, input));
    if (!rule) return operation === 'SendMessage' ? { status: 200, body: sent(input) } : { status: 200, body: {} };
    if (rule.answer.status !== 200) return rule.answer;
    const body = rule.answer.body;
    if (operation === 'GetItem') return { status: 200, body: body.Item ? { Item: marshall(body.Item, { removeUndefinedValues: true }) } : {} };
    return { status: 200, body: { ...sent(input), ...body } };
  }

  /**
   * A BatchGetItem (one table): a rule of its own answers it whole (`{ Responses }` in document
   * form, or an error); otherwise each key is answered as a GetItem of that key would be (its item
   * with the key's PK and SK, which a real table item has), and a missing item is left out.
   */
  #batchGet(raw: Record<string, unknown>, headers: IncomingHttpHeaders): { status: number; body: Record<string, unknown> } {
    const [table, request] = Object.entries((raw.RequestItems ?? {}) as Record<string, { Keys?: Record<string, AttributeValue>[] }>)[0] ?? ['', {}];
    const keys = (request.Keys ?? []).map((key) => unmarshall(key));
    this.#calls.push({ operation: 'BatchGetItem', input: { ...raw, TableName: table, Keys: keys }, headers });
    const own = this.#rules.findLast((r) => r.operation === 'BatchGetItem');
    if (own) {
      if (own.answer.status !== 200) return own.answer;
      const responses = (own.answer.body.Responses ?? []) as Record<string, unknown>[];
      return { status: 200, body: { Responses: { [table]: responses.map((item) => marshall(item, { removeUndefinedValues: true })) } } };
    }
    const items = keys.flatMap((key) => {
      const rule = this.#rules.findLast((r) => r.operation === 'GetItem' && matches(r.match, { TableName: table, Key: key }));
      if (rule && rule.answer.status !== 200) return [];
      const item = rule?.answer.body.Item as Record<string, unknown> | undefined;
      return item ? [marshall({ ...item, ...key }, { removeUndefinedValues: true })] : [];
    });
    return { status: 200, body: { Responses: { [table]: items } } };
  }
}

/** SQS's answer to a SendMessage: a message id and the body's MD5, which the client checks. */
const sent = (input: Record<string, unknown>) => ({
  MessageId: 'fake-message',
  MD5OfMessageBody: createHash('md5').update(String(input.MessageBody ?? '')).digest('hex'),
});

// PutItem: a scan spilled to the table while the queue fails (lib/data/scan-queue.ts).
export const ddb = new FakeAwsService(['GetItem', 'BatchGetItem', 'PutItem']);
export const sqs = new FakeAwsService(['SendMessage']);

let server: Server | undefined;

/** Starts the fake (once per test file) and answers its endpoint, `http://127.0.0.1:{port}`. */
export async function startFakeAws(): Promise<string> {
  if (!server) {
    const started = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const operation = String(req.headers['x-amz-target'] ?? '').split('.').pop() as Operation;
        const service = ddb.operations.includes(operation) ? ddb : sqs.operations.includes(operation) ? sqs : undefined;
        const { status, body } = service
          ? service.answer(operation, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>, req.headers)
          : { status: 400, body: { __type: 'com.amazonaws#UnknownOperationException', message: `fake AWS: no ${operation}` } };
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    started.unref();
    server = started;
  }
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
