import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// The worker's configuration, read once per process: a local stack's (loopback allowed) with a queue.
process.env.SECRETS_KEY ??= Buffer.alloc(32, 9).toString('base64');
process.env.EVENT_DELIVERY_QUEUE_URL = 'http://sqs.local/000000000000/event-deliveries';
process.env.EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK = 'true';
delete process.env.EVENT_RETRY_SCHEDULE_SECONDS;

const { isAllowedAddress, urlProblem } = await import('../../lib/domain/outbound-address.ts');
const { standardSignatures, DEFAULT_RETRY_SCHEDULE_SECONDS } = await import('../../lib/domain/event-subscription.ts');
const { postJson } = await import('../../lib/data/outbound-http.ts');
const { putSubscription } = await import('../../lib/data/event-subscriptions.ts');
const { checkSubscriptionUrl } = await import('../../lib/services/event-subscriptions.ts');
const { deliver } = await import('../../lib/services/event-delivery.ts');
const { loadConfig } = await import('../../lib/config.ts');
const { eventOf, handler: fanOutHandler } = await import('../../functions/event-fanout/handler.ts');
const { localFunctionEnvironment } = await import('../../infra/local/environment.ts');

describe('the fan-out’s reading of stream records', () => {
  const image = {
    PK: { S: 'EVENTS#org_1#test' },
    SK: { S: 'EVT#evt_1' },
    type: { S: 'event' },
    event: {
      M: {
        id: { S: 'evt_1' },
        type: { S: 'passport.published' },
        requestId: { NULL: true },
        data: { M: { object: { M: { version: { N: '3' }, published: { BOOL: true }, tags: { L: [{ S: 'a' }, { N: '1.5' }] } } } } },
      },
    },
  };

  it('takes the tenant from the partition key and the event as stored', () => {
    // Act
    const found = eventOf({ eventName: 'INSERT', dynamodb: { NewImage: image } });
    // Assess
    expect(found?.tenant).toEqual({ orgId: 'org_1', environment: 'test' });
    expect(found?.event).toEqual({ id: 'evt_1', type: 'passport.published', requestId: null, data: { object: { version: 3, published: true, tags: ['a', 1.5] } } });
  });

  it('reads each tenant’s subscriptions once per stream batch, however many of its events the batch holds', async () => {
    // Prepare: five events of one tenant and one of another, in one batch
    const db = mockClient(DynamoDBDocumentClient);
    const queue = mockClient(SQSClient);
    db.on(QueryCommand).resolves({ Items: [] });
    const record = (pk: string, i: number) => ({
      eventName: 'INSERT' as const,
      dynamodb: { SequenceNumber: String(100 + i), NewImage: { ...image, PK: { S: pk }, SK: { S: `EVT#evt_${i}` } } },
    });
    const records = [...[0, 1, 2, 3, 4].map((i) => record('EVENTS#org_1#test', i)), record('EVENTS#org_2#live', 5)];
    // Act
    const response = await fanOutHandler({ Records: records });
    // Assess
    expect(db.commandCalls(QueryCommand)).toHaveLength(2);
    expect(queue.commandCalls(SendMessageBatchCommand)).toHaveLength(0); // no subscriptions: nothing to send
    expect(response.batchItemFailures).toEqual([]);
    db.restore();
    queue.restore();
  });

  it('attack: one event of a tenant holding 300 subscriptions (written before the cap) is fanned out to at most 20 deliveries', async () => {
    // Prepare: the tenant's partition as DynamoDB pages it, honouring a Query's Limit
    const db = mockClient(DynamoDBDocumentClient);
    const queue = mockClient(SQSClient);
    const stored = Array.from({ length: 300 }, (_, i) => {
      const subscriptionId = `sub_${String(i).padStart(20, '0')}`;
      return {
        PK: 'T#org_1#test', SK: `EVSUB#${subscriptionId}`, subscriptionId, orgId: 'org_1', environment: 'test', url: `https://h${i}.example.com/`,
        events: ['*'], status: 'enabled', secrets: [], createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
      };
    });
    db.on(QueryCommand).callsFake((input: { Limit?: number; ExclusiveStartKey?: { SK: string } }) => {
      const from = input.ExclusiveStartKey ? stored.findIndex((s) => s.SK === input.ExclusiveStartKey?.SK) + 1 : 0;
      const items = stored.slice(from, input.Limit === undefined ? undefined : from + input.Limit);
      const last = items.at(-1);
      return { Items: items, ...(from + items.length < stored.length && last ? { LastEvaluatedKey: { PK: last.PK, SK: last.SK } } : {}) };
    });
    queue.on(SendMessageBatchCommand).resolves({ Failed: [] });
    // Act
    const response = await fanOutHandler({ Records: [{ eventName: 'INSERT', dynamodb: { SequenceNumber: '1', NewImage: image } }] });
    // Assess: 20 signed POSTs for the event, not 300; and no more than the cap's worth read
    const messages = queue.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries ?? []);
    const read = db.commandCalls(QueryCommand).reduce((sum, c) => sum + (c.args[0].input.Limit ?? stored.length), 0);
    expect(response.batchItemFailures).toEqual([]);
    expect(messages).toHaveLength(20);
    expect(read).toBeLessThanOrEqual(21);
    db.restore();
    queue.restore();
  });

  it('ignores other items, changes of an item, and partitions that are not an event log', () => {
    expect(eventOf({ eventName: 'INSERT', dynamodb: { NewImage: { ...image, type: { S: 'product' } } } })).toBeUndefined();
    expect(eventOf({ eventName: 'MODIFY', dynamodb: { NewImage: image } })).toBeUndefined();
    expect(eventOf({ eventName: 'INSERT', dynamodb: { NewImage: { ...image, PK: { S: 'T#org_1#test' } } } })).toBeUndefined();
    expect(eventOf({ eventName: 'INSERT', dynamodb: { NewImage: { ...image, PK: { S: 'EVENTS#org_1#prod' } } } })).toBeUndefined();
  });
});

describe('the SSRF address check', () => {
  it.each([
    '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '127.0.0.1', '127.8.8.8', '0.0.0.0', '169.254.169.254', '169.254.0.1',
    '100.64.0.1', '100.127.255.254', '224.0.0.1', '255.255.255.255', '192.0.0.192', '198.18.0.1',
    '::1', '::', 'fd00::1', 'fc12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::a00:1', '2002:a00:1::1',
  ])('refuses %s', (address) => {
    // Act / Assess
    expect(isAllowedAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(isAllowedAddress(address)).toBe(true);
  });

  // Review finding 9: the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890), every
  // block that is not globally reachable, and every IPv6 form that embeds an IPv4 address.
  it.each([
    ['::7f00:1', '::/96 IPv4-compatible (deprecated), embedding 127.0.0.1'],
    ['::a9fe:a9fe', '::/96 IPv4-compatible, embedding the metadata service 169.254.169.254'],
    ['::808:808', '::/96 IPv4-compatible, even embedding a public address (not routable)'],
    ['::ffff:0:7f00:1', '::ffff:0:0:0/96 IPv4-translated (RFC 2765), embedding 127.0.0.1'],
    ['::ffff:0:a9fe:a9fe', '::ffff:0:0:0/96 IPv4-translated, embedding 169.254.169.254'],
    ['::ffff:0:808:808', '::ffff:0:0:0/96 IPv4-translated, even embedding a public address'],
    ['64:ff9b::7f00:1', '64:ff9b::/96 NAT64, embedding 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', '64:ff9b::/96 NAT64, embedding 169.254.169.254'],
    ['64:ff9b:1::808:808', '64:ff9b:1::/48 local-use NAT64'],
    ['2002:808:808::1', '2002::/16 6to4'],
    ['100::1', '100::/64 discard-only'],
    ['100:0:0:1::1', '100:0:0:1::/64 dummy prefix'],
    ['2001::1', '2001::/32 Teredo in 2001::/23'],
    ['2001:2::1', '2001:2::/48 benchmarking'],
    ['2001:db8::1', '2001:db8::/32 documentation'],
    ['3fff::1', '3fff::/20 documentation'],
    ['5f00::1', '5f00::/16 SRv6 SIDs'],
    ['fec0::1', 'fec0::/10 site-local (deprecated)'],
    ['ff0e::1', 'ff00::/8 multicast'],
    ['4000::1', 'outside 2000::/3, the only global unicast space'],
    ['0.1.2.3', '0/8'],
    ['192.0.0.8', '192.0.0/24'],
    ['192.0.2.1', '192.0.2/24 documentation'],
    ['192.88.99.1', '192.88.99/24 6to4 relay anycast'],
    ['198.19.255.255', '198.18/15 benchmarking'],
    ['198.51.100.1', '198.51.100/24 documentation'],
    ['203.0.113.1', '203.0.113/24 documentation'],
    ['240.0.0.1', '240/4 reserved'],
  ])('refuses %s (%s)', (address) => {
    // Act / Assess
    expect(isAllowedAddress(address)).toBe(false);
    expect(isAllowedAddress(address, true)).toBe(false);
  });

  it.each(['https://[::127.0.0.1]/', 'https://[::ffff:0:127.0.0.1]/', 'https://[::a9fe:a9fe]/'])(
    'attack: %s, an IPv6 form embedding a loopback or metadata IPv4 address, is refused as a subscription URL',
    async (url) => {
      // Act
      const refused = await checkSubscriptionUrl(url, { allowLoopback: false }).catch((e: unknown) => e);
      // Assess: 422 naming url, in AWS mode and even where loopback is allowed
      expect(refused).toMatchObject({ status: 422, type: 'validation_error', param: 'url' });
      expect(urlProblem(url, { allowLoopback: true })).toContain('private, loopback, link-local or reserved');
    },
  );

  it.each(['64:ff9b::808:808', '2620:4f:8000::1', '2a00:1450:4001:81c::200e'])('allows the globally reachable IPv6 address %s (NAT64 of a public IPv4 address included)', (address) => {
    expect(isAllowedAddress(address)).toBe(true);
  });

  it('allows loopback, and only loopback, when the local flag is on', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map((a) => isAllowedAddress(a, true))).toEqual([true, true, true]);
    expect(['10.0.0.1', '169.254.169.254', '192.168.1.1', 'fd00::1'].map((a) => isAllowedAddress(a, true))).toEqual([false, false, false, false]);
  });
});

describe('subscription URLs in AWS mode (no local flag)', () => {
  const aws = { allowLoopback: false };

  it.each([
    ['http://example.com/hook', 'https://'],
    ['http://127.0.0.1:8080/hook', 'https://'],
    ['https://127.0.0.1/hook', '127.0.0.1'],
    ['https://[::1]/hook', '::1'],
    ['https://169.254.169.254/latest', '169.254.169.254'],
    ['https://localhost/hook', 'localhost'],
    ['https://user:secret@example.com/hook', 'user name'],
  ])('refuses %s', (url, why) => {
    expect(urlProblem(url, aws)).toContain(why);
  });

  it('takes a public https:// URL', () => {
    expect(urlProblem('https://hooks.example.com/passport?x=1', aws)).toBeUndefined();
  });

  it('refuses (422, param url) a host name that resolves to a private address among public ones', async () => {
    // Prepare
    const resolve = async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.5', family: 4 }];
    // Act
    const refused = await checkSubscriptionUrl('https://sneaky.example.com/hook', aws, resolve).catch((e: unknown) => e);
    const accepted = await checkSubscriptionUrl('https://good.example.com/hook', aws, async () => [{ address: '93.184.215.14', family: 4 }]);
    // Assess
    expect(refused).toMatchObject({ status: 422, type: 'validation_error', param: 'url' });
    expect(String((refused as Error).message)).toContain('10.0.0.5');
    expect(accepted).toBeUndefined();
  });

  it('refuses a loopback http:// URL that the local flag would allow', async () => {
    const refused = await checkSubscriptionUrl('http://127.0.0.1:9/hook', aws).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, param: 'url' });
    await expect(checkSubscriptionUrl('http://127.0.0.1:9/hook', { allowLoopback: true })).resolves.toBeUndefined();
  });

  it('attack: EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK=false given to npm start is honoured, not overwritten with true', () => {
    // Prepare: what the local stack knows, and the environment an operator started it with
    const info = {
      region: 'eu-central-1', tableName: 't', dynamodbEndpoint: 'http://127.0.0.1:1', sqsEndpoint: 'http://127.0.0.1:2', scanQueueUrl: 'q1', importQueueUrl: 'q2',
      deliveryQueueUrl: 'q3', resolverOrigin: 'http://127.0.0.1:3', url: 'http://127.0.0.1:3', oidcIssuer: 'http://127.0.0.1:4', oidcClientId: 'c',
      sessionSecret: 's', secretsKey: 'k', dnsServer: '127.0.0.1:5',
    };
    // Act
    const switchedOff = localFunctionEnvironment(info, { dataDir: '/tmp/x' }, { EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK: 'false' });
    const unset = localFunctionEnvironment(info, { dataDir: '/tmp/x' }, {});
    // Assess: the functions refuse loopback when the operator said so; unset, the local default allows it
    expect(loadConfig(switchedOff).eventSubscriptionsAllowLoopback).toBe(false);
    expect(loadConfig(unset).eventSubscriptionsAllowLoopback).toBe(true);
  });

  it('reads the local flag only as the string true, so AWS (where it is never set) refuses loopback', () => {
    expect(loadConfig({}).eventSubscriptionsAllowLoopback).toBe(false);
    expect(loadConfig({ EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK: '1' }).eventSubscriptionsAllowLoopback).toBe(false);
    expect(loadConfig({ EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK: 'true' }).eventSubscriptionsAllowLoopback).toBe(true);
  });
});

// A receiver on loopback for the sender and the worker.
let received: { headers: IncomingHttpHeaders; body: string }[] = [];
let status = 200;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(status).end('x'.repeat(5000));
  });
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  status = 200;
});

describe('the sender', () => {
  it('connects to the address it checked, not to what DNS would say later (no rebinding)', async () => {
    // Prepare: the name resolves once, to loopback; the system resolver does not know it at all.
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    // Act
    const result = await postJson(`http://rebind.invalid:${port}/hook`, { 'content-type': 'application/json' }, '{}', { timeoutMs: 2000, allowLoopback: true, maxBodyBytes: 1024, resolve });
    // Assess
    expect(result.statusCode).toBe(200);
    expect(lookups).toBe(1);
    expect(received[0]?.headers.host).toBe(`rebind.invalid:${port}`);
    expect(result.body).toHaveLength(1024);
  });

  it('does not connect at all when the name resolves to a refused address', async () => {
    // Act
    const result = await postJson(`http://metadata.invalid:${port}/hook`, {}, '{}', {
      timeoutMs: 2000, allowLoopback: true, maxBodyBytes: 1024, resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    // Assess
    expect(result).toMatchObject({ statusCode: null });
    expect(result.error).toContain('169.254.169.254');
    expect(received).toHaveLength(0);
  });
});

describe('Standard Webhooks signatures', () => {
  it('signs with each secret, space-separated, and the standardwebhooks package verifies either', () => {
    // Prepare
    const [a, b] = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXR0ZXN0c2VjcmV0'];
    const body = JSON.stringify({ id: 'evt_1', type: 'product.created' });
    const timestamp = Math.floor(Date.now() / 1000);
    // Act
    const header = standardSignatures([a, b], 'evt_1', timestamp, body);
    // Assess
    expect(header.split(' ')).toHaveLength(2);
    for (const secret of [a, b]) {
      expect(new Webhook(secret).verify(body, { 'webhook-id': 'evt_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': header })).toEqual(JSON.parse(body));
    }
  });
});

describe('the delivery worker', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  const sqs = mockClient(SQSClient);
  const DAY = 24 * 3600 * 1000;
  const now = Date.parse('2026-11-23T12:00:00.000Z');
  const event = { id: 'evt_0000000000aaaaaaaaaaa', type: 'product.created', createdAt: '2026-11-23T11:59:59.000Z', actor: { type: 'api_key', id: 'key_1' }, requestId: null, data: { object: {} } };
  const message = { orgId: 'org_1', environment: 'live' as const, subscriptionId: 'sub_0000000000aaaaaaaaaaa', eventId: event.id, attempt: 1, event };
  const local = async () => [{ address: '127.0.0.1', family: 4 }];

  /** The stored item of a subscription (sealed as putSubscription, and insertSubscription, seal it). */
  async function storedSubscription(extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    ddb.reset();
    ddb.on(TransactWriteCommand).resolves({});
    await putSubscription({
      subscriptionId: message.subscriptionId, orgId: 'org_1', environment: 'live', url: `http://hooks.invalid:${port}/hook`, events: ['*'], status: 'enabled',
      secrets: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', createdAt: '2026-11-01T00:00:00.000Z' }], createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
    }, '2026-11-01T00:00:00.000Z', []);
    return { ...(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put?.Item as Record<string, unknown>), ...extra };
  }

  function prepare(item: Record<string, unknown>) {
    ddb.reset();
    sqs.reset();
    ddb.on(GetCommand).resolves({ Item: item });
    ddb.on(UpdateCommand).resolves({ Attributes: {} });
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
  }
  const sent = () => sqs.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries ?? []);
  const updates = () => ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);

  it('queues the first retry of a failed attempt within 10 s, and starts the failing streak', async () => {
    // Prepare
    prepare(await storedSubscription());
    status = 503;
    // Act
    const outcome = await deliver(message, { now: () => now, resolve: local });
    // Assess
    expect(outcome).toBe('retrying');
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS[0]).toBeLessThanOrEqual(10);
    const [retry] = sent();
    expect(retry?.DelaySeconds).toBe(DEFAULT_RETRY_SCHEDULE_SECONDS[0]);
    expect(JSON.parse(retry?.MessageBody ?? '{}')).toMatchObject({ attempt: 2, eventId: event.id, notBefore: now + 5000 });
    const [log, health] = updates();
    expect(log?.ExpressionAttributeValues).toMatchObject({ ':status': 'pending', ':next': new Date(now + 5000).toISOString() });
    expect(health?.UpdateExpression).toContain('failingSince');
  });

  it('chains a wait longer than SQS’s 15-minute delay through messages that are not yet due', async () => {
    // Prepare
    prepare(await storedSubscription({ failingSince: new Date(now - DAY).toISOString() }));
    status = 500;
    // Act: the sixth attempt fails; the next waits 10 hours.
    await deliver({ ...message, attempt: 6 }, { now: () => now, resolve: local });
    const [retry] = sent();
    sqs.reset();
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
    const early = await deliver(JSON.parse(retry?.MessageBody ?? '{}'), { now: () => now + 15 * 60 * 1000, resolve: local });
    // Assess
    expect(retry?.DelaySeconds).toBe(900);
    expect(JSON.parse(retry?.MessageBody ?? '{}')).toMatchObject({ attempt: 7, notBefore: now + 36_000_000 });
    expect(early).toBe('waiting');
    expect(received).toHaveLength(1);
    expect(sent()[0]?.DelaySeconds).toBe(900);
  });

  it('gives up after the last attempt of the schedule', async () => {
    prepare(await storedSubscription({ failingSince: new Date(now - DAY).toISOString() }));
    status = 500;
    const outcome = await deliver({ ...message, attempt: DEFAULT_RETRY_SCHEDULE_SECONDS.length + 1 }, { now: () => now, resolve: local });
    expect(outcome).toBe('gave-up');
    expect(sent()).toHaveLength(0);
    expect(updates()[0]?.ExpressionAttributeValues).toMatchObject({ ':status': 'failed', ':next': null });
  });

  it('disables a subscription whose deliveries have all failed for 3 days, saying why', async () => {
    // Prepare
    prepare(await storedSubscription({ failingSince: new Date(now - 3 * DAY - 1000).toISOString() }));
    status = 500;
    // Act
    await deliver({ ...message, attempt: 3 }, { now: () => now, resolve: local });
    // Assess
    const disable = updates().find((u) => String(u.UpdateExpression).includes('disabledReason'));
    expect(disable?.ExpressionAttributeValues?.[':disabled']).toBe('disabled');
    expect(String(disable?.ExpressionAttributeValues?.[':reason'])).toMatch(/failed .* \(3 days\); the last: 500/);
  });

  it('disables the subscription at once, without a retry, when the receiver answers 410 Gone', async () => {
    // Prepare
    prepare(await storedSubscription());
    status = 410;
    // Act
    const outcome = await deliver(message, { now: () => now, resolve: local });
    // Assess
    expect(outcome).toBe('gave-up');
    expect(sent()).toHaveLength(0);
    const disable = updates().find((u) => String(u.UpdateExpression).includes('disabledReason'));
    expect(String(disable?.ExpressionAttributeValues?.[':reason'])).toContain('410 Gone');
  });

  it('ends the failing streak on a 2xx, and sends the exact event with verifiable headers', async () => {
    // Prepare
    prepare(await storedSubscription({ failingSince: new Date(now - DAY).toISOString() }));
    // Act
    const outcome = await deliver(message, { resolve: local });
    // Assess
    expect(outcome).toBe('delivered');
    expect(updates().some((u) => u.UpdateExpression === 'REMOVE failingSince')).toBe(true);
    const [request] = received;
    expect(request?.headers['content-type']).toBe('application/json');
    const headers = { 'webhook-id': String(request?.headers['webhook-id']), 'webhook-timestamp': String(request?.headers['webhook-timestamp']), 'webhook-signature': String(request?.headers['webhook-signature']) };
    expect(new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(request?.body ?? '', headers)).toEqual(event);
  });

  it('drops the attempts of a disabled subscription, but not a ping or manual retry', async () => {
    // Prepare
    prepare(await storedSubscription({ status: 'disabled' }));
    // Act
    const dropped = await deliver(message, { resolve: local });
    const manual = await deliver({ ...message, manual: true }, { resolve: local });
    // Assess
    expect(dropped).toBe('dropped');
    expect(manual).toBe('delivered');
    expect(received).toHaveLength(1);
  });
});
