/**
 * `npm run cost`: the cost model. Turns what one scan and one API call make happen (counted by
 * `npm run bench` in bench-results/latest.json when present, derived from the route table, the
 * function table and the stack where they say it, else the documented defaults below) and the list
 * prices of test/bench/prices.ts into dollars per million scans and per million API calls, for
 * eu-central-1 and us-east-1, against the goals of issue 20 (docs/benchmarks.md#cost).
 * `--json` prints the figures as JSON.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../infra/cdk/bundling.ts';
import { ACCESS_LOG_FIELDS } from '../../infra/cdk/constructs/api.ts';
import { DEFAULT_BACKUP_RETENTION_YEARS } from '../../infra/cdk/constructs/backup.ts';
import { FUNCTIONS, type FunctionSpec } from '../../infra/functions.ts';
import { ROUTES, type Route } from '../../lib/api/routes.ts';
import type { Row } from './measure.ts';
import { PRICES, REGIONS, priceLines, type Region, type RegionPrices } from './prices.ts';
import { SCAN_IO_WAIT_MS } from './resolver.ts';

/** The goals of issue 20, in dollars per million, eu-central-1. */
export const GOALS = { scan: 4.0, scanStretch: 3.5, api: 1.9 } as const;

/** One input of the model: a count per operation, and where it comes from. */
export interface Input {
  value: number;
  unit: string;
  source: string;
  note: string;
}

export interface Inputs {
  /** CloudFront requests per scan: the Digital Link, and the page its 307 names (lib/api/routes.ts). */
  scanCloudFrontRequests: Input;
  /** CloudFront Function invocations per scan (the resolver behaviour's viewer-request function, when there is one). */
  scanCloudFrontFunctions: Input;
  /** API Gateway requests per scan: 0 when the resolver is served by its function URL (infra/functions.ts). */
  scanApiGatewayRequests: Input;
  /** Share of page requests CloudFront cannot answer from its cache (the page then costs a resolver invocation and a read). */
  pageCacheMissRate: Input;
  /** Bytes CloudFront sends the viewer per scan: the 307, then the compressed page. */
  scanRedirectBytes: Input;
  scanPageBytes: Input;
  scanReads: Input;
  scanSends: Input;
  /** Write units the aggregator spends per scan (rollups and exactness). */
  scanWriteUnits: Input;
  /** Read units the aggregator spends per scan (exactness checks). */
  scanAggregatorReadUnits: Input;
  scanBatch: Input;
  resolverMs: Input;
  resolverMemoryMb: Input;
  aggregatorMsPerBatch: Input;
  aggregatorMemoryMb: Input;
  /** Application log bytes per resolver invocation at its Lambda log level. */
  resolverLogBytes: Input;
  /** Platform log bytes per invocation (START/END/REPORT lines): none at system log level WARN. */
  platformLogBytes: Input;
  /** DynamoDB reads per API call (GET /v1/products/{id}, warm key cache). */
  apiReads: Input;
  /** Write units per API call (rate-limit counter, lastUsedAt). */
  apiWriteUnits: Input;
  apiMs: Input;
  apiMemoryMb: Input;
  apiResponseKb: Input;
  /** CloudWatch Logs bytes per API access log line (the stage's format, a typical call). */
  accessLogBytes: Input;
  /** Read request units per read: 0.5 for an eventually consistent read of up to 4 KB. */
  readUnitsPerRead: Input;
  /** Messages per ReceiveMessage and per DeleteMessageBatch of the event source mapping (at most 10). */
  messagesPerSqsCall: Input;
}

const bench = (benchmark: string, figure: string) => ({ benchmark, figure });
type Source = ReturnType<typeof bench>;

/** CloudWatch Logs counts 26 bytes per log event beside the message (the PutLogEvents size rule; assumed billed alike). */
export const LOG_EVENT_OVERHEAD_BYTES = 26;

/** The bytes of one access log line for a typical call: the stage's format (infra/cdk/constructs/api.ts) with typical values. */
export function accessLogLineBytes(routes: readonly Pick<Route, 'method' | 'path'>[] = ROUTES): number {
  const typical: Record<keyof typeof ACCESS_LOG_FIELDS, string> = {
    requestId: 'JKJaXmPLvHcESHA=',
    time: '1795256130000',
    // The longest API route key: an upper bound for the field.
    routeKey: routes.map((r) => `${r.method} ${r.path}`).reduce((a, b) => (b.length > a.length ? b : a), ''),
    status: '200',
    latency: '23',
    error: '-',
  };
  return Buffer.byteLength(JSON.stringify(typical)) + LOG_EVENT_OVERHEAD_BYTES;
}

/** Reads the inputs from benchmark rows, the route table and the function table; otherwise the defaults, with why. */
export function modelInputs(
  rows: readonly Row[],
  functions: Readonly<Record<string, FunctionSpec>> = FUNCTIONS,
  routes: readonly Pick<Route, 'method' | 'path' | 'function'>[] = ROUTES,
  options: { customResolverDomain?: boolean } = {},
): Inputs {
  const customDomain = options.customResolverDomain ?? true;
  const measured = (source: Source, fallback: number, unit: string, note: string): Input => {
    const row = rows.find((r) => r.benchmark === source.benchmark && r.figure === source.figure);
    return row && Number.isFinite(row.value)
      ? { value: row.value, unit, source: `bench: ${source.benchmark} / ${source.figure}`, note }
      : { value: fallback, unit, source: 'default', note };
  };
  const assumed = (value: number, unit: string, note: string): Input => ({ value, unit, source: 'default', note });
  const fromTable = (name: string, read: (spec: FunctionSpec) => number | undefined, fallback: number, unit: string, note: string): Input => {
    const spec = functions[name];
    const value = spec ? read(spec) : undefined;
    return value === undefined ? assumed(fallback, unit, note) : { value, unit, source: `infra/functions.ts: ${name}`, note };
  };
  const batch = fromTable('aggregator', (s) => s.trigger?.batchSize, 100, 'scans', 'scan queue batch size');
  const resolverMemory = fromTable('resolver', (s) => s.memoryMb, 512, 'MB', 'resolver memory');
  // The products benchmark counts every DynamoDB call, the rate-limit writes (1 WRU each) included.
  const apiCalls = measured(bench('products.get', 'DynamoDB calls per request'), 1, 'reads', 'GET /v1/products/{id}, warm key cache');
  const apiWriteUnits = measured(bench('products.get', 'rate-limit writes per request'), 0.1, 'WRU', 'rate-limit counter and lastUsedAt');
  const apiReads: Input = {
    ...apiCalls,
    value: Math.max(0, apiCalls.value - apiWriteUnits.value),
    note: `${apiCalls.note}: DynamoDB calls less the rate-limit writes`,
  };
  const resolverRoutes = routes.filter((r) => r.function === 'resolver' && r.method === 'GET');
  const digitalLink = resolverRoutes.some((r) => r.path.includes('/01/{gtin}'));
  const pageRoute = resolverRoutes.some((r) => r.path.includes('/p/'));
  const viaFunctionUrl = functions.resolver?.functionUrl === true;
  return {
    scanCloudFrontRequests: {
      value: (digitalLink ? 1 : 0) + (pageRoute ? 1 : 0),
      unit: 'requests',
      source: 'lib/api/routes.ts: resolver GET routes',
      note: 'the Digital Link (never cached) and the version page its 307 names (cached)',
    },
    scanCloudFrontFunctions: {
      value: customDomain ? 0 : 1,
      unit: 'invocations',
      source: 'infra/cdk/constructs/resolver-cdn.ts',
      note: customDomain ? 'custom resolver domain: no viewer-request function' : 'viewer-request function on the Digital Link behaviour',
    },
    scanApiGatewayRequests: {
      value: viaFunctionUrl ? 0 : 1,
      unit: 'requests',
      source: 'infra/functions.ts: resolver.functionUrl',
      note: viaFunctionUrl ? 'function URL behind CloudFront (no charge)' : 'HTTP API route',
    },
    pageCacheMissRate: assumed(0.01, 'share', 'page requests CloudFront forwards (a new version, a cold edge); a page is cached for a year'),
    scanRedirectBytes: measured(bench('resolver.function', '307 answer bytes'), 500, 'bytes', 'the 307: status line and headers'),
    scanPageBytes: measured(bench('resolver.function', 'e-label page bytes (Brotli)'), 6144, 'bytes', 'the page, Brotli-compressed at the edge'),
    scanReads: measured(bench('resolver.scan', 'DynamoDB reads per scan'), 1, 'reads', 'GetItem of the GTIN\'s public view'),
    scanSends: measured(bench('resolver.scan', 'SQS sends per scan'), 1, 'calls', 'SendMessage of the scan event'),
    scanWriteUnits: measured(bench('pipeline', `write units per scan, batch ${batch.value}`), 3, 'WRU', 'aggregator: rollup updates and exactness'),
    scanAggregatorReadUnits: measured(bench('pipeline', `read units per scan, batch ${batch.value}`), 0, 'RRU', 'aggregator: exactness checks'),
    scanBatch: batch,
    resolverMs: measured(
      bench('resolver.function', `modelled warm duration at ${resolverMemory.value} MB`),
      30,
      'ms',
      `warm scan: measured CPU scaled to the memory's CPU share + ${SCAN_IO_WAIT_MS} ms in-region I/O (assumed)`,
    ),
    resolverMemoryMb: resolverMemory,
    aggregatorMsPerBatch: assumed(250, 'ms', 'aggregator invocation per batch'),
    aggregatorMemoryMb: fromTable('aggregator', (s) => s.memoryMb, 512, 'MB', 'aggregator memory'),
    resolverLogBytes: measured(bench('resolver.function', 'log bytes per scan'), 0, 'bytes', 'application lines per scan at the resolver\'s log level'),
    platformLogBytes: {
      value: 0,
      unit: 'bytes',
      source: 'infra/cdk/constructs/api.ts: systemLogLevelV2 WARN',
      note: 'no platform.start / platform.report lines (600 bytes an invocation at INFO)',
    },
    apiReads,
    apiWriteUnits,
    apiMs: assumed(20, 'ms', 'warm products invocation'),
    apiMemoryMb: fromTable('products', (s) => s.memoryMb, 512, 'MB', 'products memory'),
    apiResponseKb: assumed(1, 'KB', 'JSON response out of the region'),
    accessLogBytes: {
      value: accessLogLineBytes(routes.filter((r) => !functions[r.function]?.functionUrl)),
      unit: 'bytes',
      source: 'infra/cdk/constructs/api.ts: ACCESS_LOG_FIELDS',
      note: `one access log line, typical values, + ${LOG_EVENT_OVERHEAD_BYTES} bytes per event`,
    },
    readUnitsPerRead: assumed(0.5, 'RRU', 'eventually consistent read of an item up to 4 KB'),
    messagesPerSqsCall: assumed(10, 'messages', 'full ReceiveMessage / DeleteMessageBatch calls (busy queue)'),
  };
}

export type Component =
  | 'CloudFront requests'
  | 'CloudFront transfer'
  | 'CloudFront Functions'
  | 'HTTP API'
  | 'Lambda requests'
  | 'Lambda compute (Arm)'
  | 'DynamoDB reads'
  | 'DynamoDB writes'
  | 'SQS'
  | 'CloudWatch Logs'
  | 'Data transfer out';
export const COMPONENTS: readonly Component[] = [
  'CloudFront requests',
  'CloudFront transfer',
  'CloudFront Functions',
  'HTTP API',
  'Lambda requests',
  'Lambda compute (Arm)',
  'DynamoDB reads',
  'DynamoDB writes',
  'SQS',
  'CloudWatch Logs',
  'Data transfer out',
];

export interface Costs {
  region: Region;
  /** Dollars per million scans, per component. */
  scan: Record<Component, number>;
  /** Dollars per million API calls, per component. */
  api: Record<Component, number>;
  /** Fixed dollars a month. */
  monthly: { item: string; dollars: number }[];
}

const GB = 1024 ** 3;
const gbSeconds = (ms: number, memoryMb: number) => (ms / 1000) * (memoryMb / 1024);

/** Dollars per million operations: the arithmetic of the model. */
export function costModel(prices: RegionPrices, inputs: Inputs, alarmMetrics: number): Costs {
  const v = (key: keyof Inputs) => inputs[key].value;
  const each = (perMillion: { value: number }) => perMillion.value / 1e6;
  const lambdaRequest = each(prices.lambdaRequestsPerMillion);
  const sqsRequest = each(prices.sqsRequestsPerMillion);
  const rru = each(prices.dynamodbReadUnitsPerMillion);
  const wru = each(prices.dynamodbWriteUnitsPerMillion);
  const logsPerByte = prices.logsIngestionPerGb.value / GB;
  const miss = v('pageCacheMissRate');
  // The resolver answers the scan and the page requests CloudFront forwards; the aggregator a batch.
  const resolverInvocations = 1 + miss;
  const aggregatorInvocations = 1 / v('scanBatch');

  const scan: Record<Component, number> = {
    'CloudFront requests': v('scanCloudFrontRequests') * each(prices.cloudfrontHttpsRequestsPerMillion),
    'CloudFront transfer': ((v('scanRedirectBytes') + v('scanPageBytes')) / GB) * prices.cloudfrontTransferPerGb.value,
    'CloudFront Functions': v('scanCloudFrontFunctions') * each(prices.cloudfrontFunctionsPerMillion),
    'HTTP API': v('scanApiGatewayRequests') * (1 + miss) * each(prices.httpApiRequestsPerMillion),
    'Lambda requests': (resolverInvocations + aggregatorInvocations) * lambdaRequest + (1 + miss) * (1 - v('scanApiGatewayRequests')) * each(prices.functionUrlRequestsPerMillion),
    'Lambda compute (Arm)':
      (resolverInvocations * gbSeconds(v('resolverMs'), v('resolverMemoryMb')) + aggregatorInvocations * gbSeconds(v('aggregatorMsPerBatch'), v('aggregatorMemoryMb'))) *
      prices.lambdaArmGbSecond.value,
    'DynamoDB reads': ((v('scanReads') + miss) * v('readUnitsPerRead') + v('scanAggregatorReadUnits')) * rru,
    'DynamoDB writes': v('scanWriteUnits') * wru,
    // The producer's SendMessage, and the event source mapping's ReceiveMessage and DeleteMessageBatch.
    SQS: (v('scanSends') + 2 / v('messagesPerSqsCall')) * sqsRequest,
    'CloudWatch Logs': ((resolverInvocations + aggregatorInvocations) * v('platformLogBytes') + v('resolverLogBytes')) * logsPerByte,
    // The function URL to CloudFront is free (an AWS origin); CloudFront's own transfer is in its line.
    'Data transfer out': 0,
  };
  const api: Record<Component, number> = {
    'CloudFront requests': 0,
    'CloudFront transfer': 0,
    'CloudFront Functions': 0,
    'HTTP API': each(prices.httpApiRequestsPerMillion),
    'Lambda requests': lambdaRequest,
    'Lambda compute (Arm)': gbSeconds(v('apiMs'), v('apiMemoryMb')) * prices.lambdaArmGbSecond.value,
    'DynamoDB reads': v('apiReads') * v('readUnitsPerRead') * rru,
    'DynamoDB writes': v('apiWriteUnits') * wru,
    SQS: 0,
    'CloudWatch Logs': (v('platformLogBytes') + v('accessLogBytes')) * logsPerByte,
    'Data transfer out': ((v('apiResponseKb') * 1024) / GB) * prices.dataTransferOutPerGb.value,
  };
  const million = (costs: Record<Component, number>) =>
    Object.fromEntries(Object.entries(costs).map(([k, dollars]) => [k, dollars * 1e6])) as Record<Component, number>;
  return {
    region: prices.region,
    scan: million(scan),
    api: million(api),
    monthly: [
      { item: 'Secrets Manager: the session key', dollars: prices.secretsManagerSecretPerMonth.value },
      { item: `CloudWatch alarms (${alarmMetrics} metrics)`, dollars: alarmMetrics * prices.alarmMetricPerMonth.value },
      // Lambda long-polls an idle queue with about five pollers, one 20-second ReceiveMessage each.
      { item: 'SQS: idle long polling of the event source mapping (estimate)', dollars: ((5 * 30 * 24 * 3600) / 20) * sqsRequest },
    ],
  };
}

/**
 * What the backup copy costs per million published versions (docs/backup.md#what-it-costs): the
 * store's requests (conditional puts, one private object and the public ones per version) and the
 * storage of both copies for the retention, every object locked that long (Standard storage class;
 * SSE-KMS with a bucket key, whose few KMS requests are left out). The backup function's Lambda
 * invocations are per stream batch of up to 100 records and left out too (under a cent a million).
 */
export interface BackupInputs {
  requestsPerVersion: Input;
  privateBytesPerVersion: Input;
  publicBytesPerVersion: Input;
  retentionYears: Input;
}

export function backupInputs(rows: readonly Row[]): BackupInputs {
  const measured = (figure: string, fallback: number, unit: string, note: string): Input => {
    const row = rows.find((r) => r.benchmark === 'backup' && r.figure === figure);
    return row && Number.isFinite(row.value) ? { value: row.value, unit, source: `bench: backup / ${figure}`, note } : { value: fallback, unit, source: 'default', note };
  };
  return {
    requestsPerVersion: measured('store requests per version', 26, 'requests', 'conditional puts: the private object, the public JSON and 24 pages'),
    privateBytesPerVersion: measured('bytes per version (a wine passport)', 935, 'bytes', "the private copy's object"),
    publicBytesPerVersion: measured('public bytes per version (a wine passport)', 155_114, 'bytes', 'the JSON read form and the page in 24 languages (measured 2026-11-26)'),
    retentionYears: { value: DEFAULT_BACKUP_RETENTION_YEARS, unit: 'years', source: 'infra/cdk/constructs/backup.ts', note: 'Object Lock retention of every object (context backupRetentionYears)' },
  };
}

export interface BackupCosts {
  region: Region;
  /** Dollars per million published versions: the puts, once. */
  requests: number;
  /** Dollars a month per million versions kept: both copies' bytes. */
  storagePerMonth: number;
  /** Dollars per million versions over the whole retention: the puts and every month of it. */
  overRetention: number;
}

export function backupCostModel(prices: RegionPrices, inputs: BackupInputs): BackupCosts {
  const requests = inputs.requestsPerVersion.value * 1e6 * (prices.s3PutRequestsPerThousand.value / 1000);
  const bytes = (inputs.privateBytesPerVersion.value + inputs.publicBytesPerVersion.value) * 1e6;
  const storagePerMonth = (bytes / GB) * prices.s3StandardPerGbMonth.value;
  return { region: prices.region, requests, storagePerMonth, overRetention: requests + storagePerMonth * 12 * inputs.retentionYears.value };
}

export const total = (costs: Record<Component, number>): number => Object.values(costs).reduce((a, b) => a + b, 0);

/** Alarm metrics the stack creates: the DLQ depth, the 5xx rate (two metrics), one throttle alarm per function. */
export const alarmMetricCount = (functions: Readonly<Record<string, FunctionSpec>> = FUNCTIONS): number => 1 + 2 + Object.keys(functions).length;

export function loadBenchRows(file = join(REPO_ROOT, 'bench-results', 'latest.json')): { rows: Row[]; at?: string } {
  if (!existsSync(file)) return { rows: [] };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { rows?: Row[]; at?: string };
  return { rows: parsed.rows ?? [], ...(parsed.at ? { at: parsed.at } : {}) };
}

const dollars = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3));

/** The cost table of both regions as Markdown (docs/benchmarks.md#cost shows it). */
export function costTable(all: readonly Costs[]): string {
  const head = all.flatMap((c) => [`${c.region}: $ per million scans`, `${c.region}: $ per million API calls`]);
  const lines = [`| Component | ${head.join(' | ')} |`, `|---|${head.map(() => '--:').join('|')}|`];
  for (const component of COMPONENTS) lines.push(`| ${component} | ${all.flatMap((c) => [dollars(c.scan[component]), dollars(c.api[component])]).join(' | ')} |`);
  lines.push(`| **Total** | ${all.flatMap((c) => [`**${dollars(total(c.scan))}**`, `**${dollars(total(c.api))}**`]).join(' | ')} |`);
  return lines.join('\n');
}

/** The totals against the goals (eu-central-1). */
export function goalLines(costs: Costs): string[] {
  const scan = total(costs.scan);
  const api = total(costs.api);
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  return [
    `scans: $${scan.toFixed(2)} per million (goal ≤ $${GOALS.scan.toFixed(2)}: ${mark(scan <= GOALS.scan)}; stretch ≤ $${GOALS.scanStretch.toFixed(2)}: ${mark(scan <= GOALS.scanStretch)})`,
    `API calls: $${api.toFixed(2)} per million (goal ≤ $${GOALS.api.toFixed(2)}: ${mark(api <= GOALS.api)})`,
  ];
}

export function inputTable(inputs: Inputs): string {
  const lines = ['| Input | Value | From | Meaning |', '|---|--:|---|---|'];
  for (const [key, input] of Object.entries(inputs) as [keyof Inputs, Input][]) {
    lines.push(`| ${key} | ${Number(input.value.toFixed(3))} ${input.unit} | ${input.source} | ${input.note} |`);
  }
  return lines.join('\n');
}

export function priceTable(): string {
  const lines = ['| Region | Price | Value | Source | Checked | Confirmed |', '|---|---|--:|---|---|---|'];
  for (const region of REGIONS) {
    for (const { item, price } of priceLines(PRICES[region])) {
      lines.push(`| ${region} | ${item} | ${price.value} ${price.unit} | ${price.source}${price.note ? ` (${price.note})` : ''} | ${price.checked} | ${price.confirmed ? 'yes' : 'no'} |`);
    }
  }
  return lines.join('\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const bench = loadBenchRows();
  const inputs = modelInputs(bench.rows);
  const all = REGIONS.map((region) => costModel(PRICES[region], inputs, alarmMetricCount()));
  const frankfurt = all.find((c) => c.region === 'eu-central-1') as Costs;
  const backup = backupInputs(bench.rows);
  const backupCosts = REGIONS.map((region) => backupCostModel(PRICES[region], backup));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ benchAt: bench.at, goals: GOALS, inputs, costs: all, backup: { inputs: backup, costs: backupCosts }, prices: PRICES }, null, 2));
  } else {
    console.log(`\nCost model: list prices of test/bench/prices.ts (on-demand, first tier, free tier not deducted), both regions`);
    console.log(bench.at ? `Counts from bench-results/latest.json (${bench.at}) where measured, else defaults\n` : 'No bench-results/latest.json: default counts (run `npm run bench` to measure them)\n');
    console.log(costTable(all));
    console.log('\nGoals (eu-central-1):\n');
    for (const line of goalLines(frankfurt)) console.log(`  ${line}`);
    console.log('\nFixed, a month (eu-central-1):\n');
    for (const m of frankfurt.monthly) console.log(`  $${m.dollars.toFixed(2).padStart(6)}  ${m.item}`);
    console.log('\nThe backup copy, per million published versions (docs/backup.md#what-it-costs):\n');
    for (const c of backupCosts) {
      console.log(`  ${c.region}: $${dollars(c.requests)} of puts once, $${dollars(c.storagePerMonth)} a month of storage, $${dollars(c.overRetention)} over ${backup.retentionYears.value} years`);
    }
    console.log('\nInputs:\n');
    console.log(inputTable(inputs));
    console.log(inputTable(backup as unknown as Inputs).split('\n').slice(2).join('\n'));
    console.log('\nPrices:\n');
    console.log(priceTable());
  }
}
