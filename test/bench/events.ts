import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, BatchWriteCommand, QueryCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, dynamo } from '../../lib/data/client.ts';
import { setApiKeyRateLimit } from '../../lib/data/api-keys.ts';
import { toItem } from '../../lib/data/events.ts';
import { EVENT_PREFIX, eventsPk } from '../../lib/data/keys.ts';
import { createTableInput } from '../../lib/data/table.ts';
import { EVENT_TYPES, type DomainEvent, type EventType } from '../../lib/domain/events.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import { startLocalStack, type StackInfo } from '../../infra/local/stack.ts';
import { printTable, type Row } from './measure.ts';

/**
 * `GET /v1/events?type=…&limit=10` against the unfiltered `GET /v1/events?limit=10`, through the
 * local gateway, in one tenant holding 100,000 events of 20 types (docs/benchmarks.md#the-event-log-by-type).
 *
 * The events are written straight into DynamoDB Local as the event log stores them (lib/data/events.ts
 * `toItem`, index key included), 25 to a BatchWriteItem, several in flight; ids are spread one a
 * minute over the last 70 days. 19 types share 99,990 events at random; the 20th has 10, the
 * oldest of all: the page the old filter had to read the whole log for.
 *
 * Read units are what DynamoDB reports (ReturnConsumedCapacity, added by a middleware of this
 * process's client, which the gateway's handlers share) for the requests' reads of the event log
 * (its partition, its index, a cursor's GetItem); authentication and rate limiting are left out
 * (the key is cached, and they are the same for every list). Time is the median of sequential
 * requests. "Before" runs the previous implementation's query (a filter over the tenant's log,
 * page after page until 11 matches) straight against DynamoDB Local, without HTTP, for the common
 * type; the rare type's figure is extrapolated from it (see below).
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const TYPES: readonly EventType[] = EVENT_TYPES.slice(0, 20);
const RARE: EventType = TYPES[TYPES.length - 1] as EventType;
const RARE_COUNT = 10;
const COMMON: EventType = 'passport.published';
const REQUESTS = 40;

/** A product's API form, as most events carry one: about 450 bytes stored per event. */
const objectOf = (i: number) => ({
  productId: `0193${i.toString(16).padStart(4, '0')}-8a6b-7c3d-9e2f-0a1b2c3d4e5f`,
  internalId: `0193${i.toString(16).padStart(4, '0')}-8a6b-7c3d-9e2f-0a1b2c3d4e5f`,
  gtin: '04006381333931',
  name: `Bench Riesling ${i}`,
  category: 'wine',
  status: 'active',
  passportVersion: 1 + (i % 7),
  qrCodeUrl: 'https://id.example.com/org_0123456789abcdef/live/01/04006381333931',
  createdAt: '2026-11-01T00:00:00.000Z',
});

/** An event id of time `ms`: the sortable form of lib/domain/ids.ts, with a counter for the random part. */
const eventId = (ms: number, i: number): string => `evt_${ms.toString(36).padStart(9, '0')}${i.toString(36).padStart(11, '0')}`;

/**
 * Writes the events, 25 a call, `inFlight` calls at once; unprocessed items are sent again.
 *
 * With the table's stream off: DynamoDB Local keeps every stream record in memory and each write
 * costs more the more records it holds (writes fell from about 2,400 to under 100 items a second
 * within 40,000 records here), and the fan-out would be handed every seeded event. The stream is
 * turned on again afterwards, as a new stream, which the local stack's stream poller does not
 * follow: run.ts calls this bench after every bench that needs outbound webhooks.
 */
async function seed(stack: StackInfo, tenant: Tenant): Promise<number> {
  const raw = localClient(stack.dynamodbEndpoint, stack.region);
  const client = DynamoDBDocumentClient.from(raw);
  const now = Date.now();
  const start = now - EVENTS * 60_000;
  let random = 20261123;
  const next = () => (random = (Math.imul(random, 1103515245) + 12345) >>> 0) >>> 16;
  const typeOf = (i: number): EventType => (i < RARE_COUNT ? RARE : (TYPES[next() % (TYPES.length - 1)] as EventType));
  const items = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, k) => {
      const i = from + k;
      const at = start + i * 60_000;
      const event: DomainEvent = {
        id: eventId(at, i),
        type: typeOf(i),
        createdAt: new Date(at).toISOString(),
        actor: { type: 'api_key', id: 'key_0mhx3k2a1bq3x9f0c7zz' },
        requestId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
        data: { object: objectOf(i) },
      };
      return toItem(tenant, event);
    });
  await raw.send(new UpdateTableCommand({ TableName: stack.tableName, StreamSpecification: { StreamEnabled: false } }));
  try {
    const started = performance.now();
    let cursor = 0;
    const inFlight = 6;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (cursor < EVENTS) {
          const from = cursor;
          cursor = Math.min(EVENTS, cursor + 25);
          let requests = items(from, cursor).map((Item) => ({ PutRequest: { Item } }));
          while (requests.length) {
            const out: BatchWriteCommandOutput = await client.send(new BatchWriteCommand({ RequestItems: { [stack.tableName]: requests } }));
            requests = (out.UnprocessedItems?.[stack.tableName] ?? []) as typeof requests;
          }
        }
      }),
    );
    return (performance.now() - started) / 1000;
  } finally {
    await raw.send(new UpdateTableCommand({ TableName: stack.tableName, StreamSpecification: createTableInput(stack.tableName).StreamSpecification }));
    raw.destroy();
  }
}

/** Read units DynamoDB reports for reads of `tenant`'s event log, while `counting` is on. */
function readUnitMeter(tenant: Tenant) {
  const log = eventsPk(tenant);
  const index = `EVTYPE#${tenant.orgId}#${tenant.environment}#`;
  let counting = false;
  let units = 0;
  let items = 0;
  const ofTheLog = (input: Record<string, unknown>): boolean => {
    const pk = (input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'] ?? (input.Key as Record<string, unknown> | undefined)?.PK;
    const text = typeof pk === 'string' ? pk : (pk as { S?: string } | undefined)?.S;
    return typeof text === 'string' && (text === log || text.startsWith(index));
  };
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const measured = counting && ofTheLog(input);
      if (measured) input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (measured) {
        const output = result.output as { ConsumedCapacity?: { CapacityUnits?: number }; ScannedCount?: number; Item?: unknown };
        units += output.ConsumedCapacity?.CapacityUnits ?? 0;
        items += output.ScannedCount ?? (output.Item ? 1 : 0);
      }
      return result;
    },
    { step: 'initialize', name: 'benchEventReadUnits' },
  );
  return {
    async during<T>(task: () => Promise<T>): Promise<{ result: T; units: number; items: number }> {
      [counting, units, items] = [true, 0, 0];
      try {
        const result = await task();
        return { result, units, items };
      } finally {
        counting = false;
      }
    },
  };
}

interface Measured {
  ms: number;
  units: number;
  items: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export async function benchEvents(stack: StackInfo): Promise<Row[]> {
  const { organization, keys } = await createOrganization('Bench events');
  const tenant: Tenant = { orgId: organization.orgId, environment: 'live' };
  await setApiKeyRateLimit(organization.orgId, keys.live.keyId, 1_000_000);
  const seedSeconds = await seed(stack, tenant);
  const meter = readUnitMeter(tenant);

  const get = async (query: string): Promise<{ data: { id: string; type: string }[]; hasMore: boolean }> => {
    const response = await fetch(`${stack.url}/v1/events?${query}`, { headers: { authorization: `Bearer ${keys.live.key}` } });
    if (response.status !== 200) throw new Error(`GET /v1/events?${query} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { data: { id: string; type: string }[]; hasMore: boolean };
  };

  type Page = Awaited<ReturnType<typeof get>>;
  /**
   * Median time and mean read units of `REQUESTS` sequential requests of each query, after a few
   * to warm up; the queries take turns, so that whatever else the machine does weighs on each alike.
   */
  const measure = async (...queries: { query: string; check: (page: Page) => boolean }[]) => {
    for (let i = 0; i < 5; i++) for (const { query } of queries) await get(query);
    const stats = queries.map(() => ({ times: [] as number[], units: 0, items: 0 }));
    for (let i = 0; i < REQUESTS; i++) {
      for (const [k, { query, check }] of queries.entries()) {
        const started = performance.now();
        const read = await meter.during(() => get(query));
        const stat = stats[k]!;
        stat.times.push(performance.now() - started);
        if (!check(read.result)) throw new Error(`GET /v1/events?${query}: an unexpected page ${JSON.stringify(read.result).slice(0, 300)}`);
        stat.units += read.units;
        stat.items += read.items;
      }
    }
    return stats.map((stat) => ({ ms: median(stat.times), units: stat.units / REQUESTS, items: stat.items / REQUESTS }));
  };
  const tenOf = (type?: string) => (page: Page) => page.data.length === 10 && page.hasMore && (!type || page.data.every((e) => e.type === type));

  const allCursor = (await get('limit=10')).data.at(-1)?.id ?? '';
  const typedCursor = (await get(`type=${COMMON}&limit=10`)).data.at(-1)?.id ?? '';
  const [all, typed, allNext, typedNext, rare] = (await measure(
    { query: 'limit=10', check: tenOf() },
    { query: `type=${COMMON}&limit=10`, check: tenOf(COMMON) },
    { query: `limit=10&starting_after=${allCursor}`, check: tenOf() },
    { query: `type=${COMMON}&limit=10&starting_after=${typedCursor}`, check: tenOf(COMMON) },
    { query: `type=${RARE}&limit=10`, check: (page) => page.data.length === RARE_COUNT && !page.hasMore && page.data.every((e) => e.type === RARE) },
  )) as [Measured, Measured, Measured, Measured, Measured];

  // Before: the previous implementation's read of a page of one type, a filter over the tenant's
  // log with Limit 11 per Query (DynamoDB applies Limit before the filter), page after page until
  // 11 match. Run for the common type; for the rare one it reads the whole log, a Query per 11
  // items: its calls are counted from the log's size, its units are those of the unfiltered page's
  // Query (the same 11 items' worth) per call, and its time the common type's measured time per
  // call (DynamoDB Local answers a start key deep in a large partition ever slower, which AWS does
  // not: a direct run over 100,000 events took 11 minutes here, for 9,091 read units).
  const filterOverTheLog = (type: EventType) =>
    meter.during(async () => {
      const started = performance.now();
      const found: unknown[] = [];
      let calls = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        calls += 1;
        const page = await db().send(
          new QueryCommand({
            TableName: stack.tableName,
            KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
            FilterExpression: '#event.#type = :type',
            ExpressionAttributeNames: { '#event': 'event', '#type': 'type' },
            ExpressionAttributeValues: { ':pk': eventsPk(tenant), ':prefix': EVENT_PREFIX, ':type': type },
            ScanIndexForward: false,
            Limit: 11 - found.length,
            ExclusiveStartKey: startKey,
          }),
        );
        found.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey && found.length <= 10);
      return { ms: performance.now() - started, calls };
    });
  await filterOverTheLog(COMMON);
  const before = await filterOverTheLog(COMMON);
  const rareCalls = Math.ceil(EVENTS / 11);
  // A Query of 11 of these items costs what the unfiltered page's one Query costs (measured above).
  const perCall = { ms: before.result.ms / before.result.calls, units: all.units };
  const note = `${EVENTS.toLocaleString('en')} events of ${TYPES.length} types in one tenant; median of ${REQUESTS} sequential requests`;
  return [
    { benchmark: 'events', figure: 'seeding, BatchWriteItem to DynamoDB Local', value: EVENTS / seedSeconds, unit: 'items/s', note: `${seedSeconds.toFixed(1)} s for ${EVENTS.toLocaleString('en')} events with their index entries` },
    { benchmark: 'events', figure: 'GET /v1/events?limit=10 (baseline)', value: all.ms, unit: 'ms', note },
    { benchmark: 'events', figure: 'GET /v1/events?type=…&limit=10', value: typed.ms, unit: 'ms', note: `${COMMON}, about 1 in ${TYPES.length - 1} events` },
    { benchmark: 'events', figure: 'time ratio, by type / unfiltered', value: typed.ms / all.ms, unit: '×', note: 'goal: within 2×' },
    { benchmark: 'events', figure: 'read units, unfiltered page', value: all.units, unit: 'RRU', note: `${all.items} items read` },
    { benchmark: 'events', figure: 'read units, page by type', value: typed.units, unit: 'RRU', note: `${typed.items} items read (the index)` },
    { benchmark: 'events', figure: 'read units ratio, by type / unfiltered', value: typed.units / all.units, unit: '×', note: 'goal: within 2×' },
    { benchmark: 'events', figure: 'second page (starting_after), unfiltered', value: allNext.ms, unit: 'ms', note: `${allNext.units} RRU: the cursor's GetItem and the page` },
    { benchmark: 'events', figure: 'second page (starting_after), by type', value: typedNext.ms, unit: 'ms', note: `${typedNext.units} RRU; ratio ${(typedNext.ms / allNext.ms).toFixed(2)}× the unfiltered` },
    { benchmark: 'events', figure: `a rare type's page (${RARE_COUNT} events, the oldest)`, value: rare.ms, unit: 'ms', note: `${rare.units} RRU, ${rare.items} items read` },
    { benchmark: 'events', figure: 'before: the page by type as a filter over the log', value: before.result.ms, unit: 'ms', note: `${before.units} RRU, ${before.items} items read in ${before.result.calls} Query calls; measured, direct, no HTTP` },
    { benchmark: 'events', figure: "before: the rare type's page", value: (rareCalls * perCall.ms) / 1000, unit: 's', note: `≈ ${Math.round(rareCalls * perCall.units)} RRU: the whole log, ${rareCalls} Query calls of 11 items, each at the units of the unfiltered page and the time per call above` },
  ];
}

// `npx tsx test/bench/events.ts`: this bench alone, against a throwaway local stack of its own.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const dataDir = mkdtempSync(join(tmpdir(), 'passport-bench-events-'));
  const stack = await startLocalStack({ port: 0, memory: true, dataDir });
  try {
    printTable(await benchEvents(stack.info));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
