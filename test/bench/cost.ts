/**
 * `npm run cost`: the cost model. Turns the calls each operation makes (counted by `npm run bench`
 * in bench-results/latest.json when present, else the documented defaults below) and the list
 * prices in infra/prices.json into dollars per million scans and per million API calls.
 * `--json` prints the figures as JSON.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../infra/cdk/bundling.ts';
import { FUNCTIONS, type FunctionSpec } from '../../infra/functions.ts';
import type { Row } from './measure.ts';

export interface Prices {
  region: string;
  currency: string;
  asOf: string;
  source: string;
  lambda: { requestsPerMillion: number; armGbSecond: number };
  httpApi: { requestsPerMillion: number };
  dynamodb: { readRequestUnitsPerMillion: number; writeRequestUnitsPerMillion: number };
  sqs: { requestsPerMillion: number };
  cloudfront: { httpsRequestsPerMillion: number; dataTransferOutPerGb: number };
  dataTransferOutPerGb: number;
  cloudwatchLogs: { ingestionPerGb: number };
  monthly: { secretsManagerSecret: number; cloudwatchAlarmPerMetric: number };
}

/** One input of the model: a count per operation, from the benchmark when it measured it. */
export interface Input {
  value: number;
  unit: string;
  source: string;
  note: string;
}

export interface Inputs {
  /** DynamoDB reads (GetItem of the GTIN's public view) per scan. */
  scanReads: Input;
  /** SendMessage calls per scan. */
  scanSends: Input;
  /** Write units the aggregator spends per scan (ledger and rollups, in transactions). */
  scanWriteUnits: Input;
  /** Scans per aggregator invocation (the event source mapping's batch size). */
  scanBatch: Input;
  resolverMs: Input;
  resolverMemoryMb: Input;
  aggregatorMsPerBatch: Input;
  aggregatorMemoryMb: Input;
  /** Bytes CloudFront sends a viewer per scan (the compressed e-label page). */
  scanResponseKb: Input;
  /** DynamoDB reads per API call (GET /v1/products/{id}, warm key cache). */
  apiReads: Input;
  /** Write units per API call (rate-limit counter, lastUsedAt). */
  apiWriteUnits: Input;
  apiMs: Input;
  apiMemoryMb: Input;
  apiResponseKb: Input;
  /** Read request units per read: 0.5 for an eventually consistent read of up to 4 KB. */
  readUnitsPerRead: Input;
  /** Messages per ReceiveMessage and per DeleteMessageBatch of the event source mapping (at most 10). */
  messagesPerSqsCall: Input;
  /** CloudWatch Logs bytes per Lambda invocation (platform start/report lines, JSON). */
  lambdaLogBytes: Input;
  /** CloudWatch Logs bytes per API access log line. */
  accessLogBytes: Input;
}

const bench = (benchmark: string, figure: string) => ({ benchmark, figure });
type Source = ReturnType<typeof bench>;

/** Reads the inputs from benchmark rows where they exist; otherwise the defaults, with why. */
export function modelInputs(rows: readonly Row[], functions: Readonly<Record<string, FunctionSpec>> = FUNCTIONS): Inputs {
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
  // The products benchmark counts every DynamoDB call, the rate-limit writes (1 WRU each) included.
  const apiCalls = measured(bench('products.get', 'DynamoDB calls per request'), 1, 'reads', 'GET /v1/products/{id}, warm key cache');
  const apiWriteUnits = measured(bench('products.get', 'rate-limit writes per request'), 0, 'WRU', 'rate-limit counter and lastUsedAt');
  const apiReads: Input = {
    ...apiCalls,
    value: Math.max(0, apiCalls.value - apiWriteUnits.value),
    note: `${apiCalls.note}: DynamoDB calls less the rate-limit writes`,
  };
  return {
    scanReads: measured(bench('resolver.scan', 'DynamoDB calls per scan'), 1, 'reads', 'GetItem of the GTIN\'s public view'),
    scanSends: measured(bench('resolver.scan', 'SQS sends per scan'), 1, 'calls', 'SendMessage of the scan event'),
    scanWriteUnits: measured(
      bench('pipeline', `write units per scan, batch ${batch.value}`),
      3,
      'WRU',
      'aggregator: dedup ledger put + rollup updates, in transactions',
    ),
    scanBatch: batch,
    resolverMs: assumed(30, 'ms', 'warm resolver invocation (GetItem, SendMessage, render)'),
    resolverMemoryMb: fromTable('resolver', (s) => s.memoryMb, 1024, 'MB', 'resolver memory'),
    aggregatorMsPerBatch: assumed(250, 'ms', 'aggregator invocation per batch (two transactions)'),
    aggregatorMemoryMb: fromTable('aggregator', (s) => s.memoryMb, 512, 'MB', 'aggregator memory'),
    scanResponseKb: assumed(6, 'KB', 'compressed e-label page to the viewer'),
    apiReads,
    apiWriteUnits,
    apiMs: assumed(20, 'ms', 'warm products invocation'),
    apiMemoryMb: fromTable('products', (s) => s.memoryMb, 512, 'MB', 'products memory'),
    apiResponseKb: assumed(1, 'KB', 'JSON response out of the region'),
    readUnitsPerRead: assumed(0.5, 'RRU', 'eventually consistent read of an item up to 4 KB'),
    messagesPerSqsCall: assumed(10, 'messages', 'full ReceiveMessage / DeleteMessageBatch calls (busy queue)'),
    lambdaLogBytes: assumed(600, 'bytes', 'platform.start + platform.report per invocation (JSON logs)'),
    accessLogBytes: assumed(350, 'bytes', 'one API access log line'),
  };
}

export type Component = 'CloudFront' | 'HTTP API' | 'Lambda requests' | 'Lambda compute (Arm)' | 'DynamoDB reads' | 'DynamoDB writes' | 'SQS' | 'CloudWatch Logs' | 'Data transfer out';
export const COMPONENTS: readonly Component[] = [
  'CloudFront',
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
  /** Dollars per million scans, per component. */
  scan: Record<Component, number>;
  /** Dollars per million API calls, per component. */
  api: Record<Component, number>;
  /** Fixed dollars a month. */
  monthly: { item: string; dollars: number }[];
}

const GB = 1024 ** 3;
const perMillion = (price: number) => price / 1e6;
const gbSeconds = (ms: number, memoryMb: number) => (ms / 1000) * (memoryMb / 1024);

/** Dollars per million operations: the arithmetic of the model. */
export function costModel(prices: Prices, inputs: Inputs, alarmMetrics: number): Costs {
  const v = (key: keyof Inputs) => inputs[key].value;
  const lambdaRequest = perMillion(prices.lambda.requestsPerMillion);
  const sqsRequest = perMillion(prices.sqs.requestsPerMillion);
  const rru = perMillion(prices.dynamodb.readRequestUnitsPerMillion);
  const wru = perMillion(prices.dynamodb.writeRequestUnitsPerMillion);
  const logsPerByte = prices.cloudwatchLogs.ingestionPerGb / GB;
  const invocationsPerScan = 1 + 1 / v('scanBatch');

  const scan: Record<Component, number> = {
    CloudFront: perMillion(prices.cloudfront.httpsRequestsPerMillion) + ((v('scanResponseKb') * 1024) / GB) * prices.cloudfront.dataTransferOutPerGb,
    'HTTP API': perMillion(prices.httpApi.requestsPerMillion),
    'Lambda requests': invocationsPerScan * lambdaRequest,
    'Lambda compute (Arm)':
      (gbSeconds(v('resolverMs'), v('resolverMemoryMb')) + gbSeconds(v('aggregatorMsPerBatch'), v('aggregatorMemoryMb')) / v('scanBatch')) *
      prices.lambda.armGbSecond,
    'DynamoDB reads': v('scanReads') * v('readUnitsPerRead') * rru,
    'DynamoDB writes': v('scanWriteUnits') * wru,
    // The producer's SendMessage, and the event source mapping's ReceiveMessage and DeleteMessageBatch.
    SQS: (v('scanSends') + 2 / v('messagesPerSqsCall')) * sqsRequest,
    'CloudWatch Logs': (invocationsPerScan * v('lambdaLogBytes') + v('accessLogBytes')) * logsPerByte,
    // API Gateway to CloudFront is free; CloudFront's own transfer is in its line.
    'Data transfer out': 0,
  };
  const api: Record<Component, number> = {
    CloudFront: 0,
    'HTTP API': perMillion(prices.httpApi.requestsPerMillion),
    'Lambda requests': lambdaRequest,
    'Lambda compute (Arm)': gbSeconds(v('apiMs'), v('apiMemoryMb')) * prices.lambda.armGbSecond,
    'DynamoDB reads': v('apiReads') * v('readUnitsPerRead') * rru,
    'DynamoDB writes': v('apiWriteUnits') * wru,
    SQS: 0,
    'CloudWatch Logs': (v('lambdaLogBytes') + v('accessLogBytes')) * logsPerByte,
    'Data transfer out': ((v('apiResponseKb') * 1024) / GB) * prices.dataTransferOutPerGb,
  };
  const million = (costs: Record<Component, number>) =>
    Object.fromEntries(Object.entries(costs).map(([k, dollars]) => [k, dollars * 1e6])) as Record<Component, number>;
  return {
    scan: million(scan),
    api: million(api),
    monthly: [
      { item: 'Secrets Manager: the session key', dollars: prices.monthly.secretsManagerSecret },
      { item: `CloudWatch alarms (${alarmMetrics} metrics)`, dollars: alarmMetrics * prices.monthly.cloudwatchAlarmPerMetric },
      // Lambda long-polls an idle queue with about five pollers, one 20-second ReceiveMessage each.
      { item: 'SQS: idle long polling of the event source mapping (estimate)', dollars: ((5 * 30 * 24 * 3600) / 20) * sqsRequest },
    ],
  };
}

export const total = (costs: Record<Component, number>): number => Object.values(costs).reduce((a, b) => a + b, 0);

/** Alarm metrics the stack creates: the DLQ depth, the 5xx rate (two metrics), one throttle alarm per function. */
export const alarmMetricCount = (functions: Readonly<Record<string, FunctionSpec>> = FUNCTIONS): number => 1 + 2 + Object.keys(functions).length;

export function loadPrices(file = join(REPO_ROOT, 'infra', 'prices.json')): Prices {
  return JSON.parse(readFileSync(file, 'utf8')) as Prices;
}

export function loadBenchRows(file = join(REPO_ROOT, 'bench-results', 'latest.json')): { rows: Row[]; at?: string } {
  if (!existsSync(file)) return { rows: [] };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { rows?: Row[]; at?: string };
  return { rows: parsed.rows ?? [], ...(parsed.at ? { at: parsed.at } : {}) };
}

const dollars = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3));

/** The cost table as Markdown (docs/benchmarks.md#cost shows it). */
export function costTable(costs: Costs): string {
  const lines = ['| Component | $ per million scans | $ per million API calls |', '|---|--:|--:|'];
  for (const component of COMPONENTS) lines.push(`| ${component} | ${dollars(costs.scan[component])} | ${dollars(costs.api[component])} |`);
  lines.push(`| **Total** | **${dollars(total(costs.scan))}** | **${dollars(total(costs.api))}** |`);
  return lines.join('\n');
}

export function inputTable(inputs: Inputs): string {
  const lines = ['| Input | Value | From | Meaning |', '|---|--:|---|---|'];
  for (const [key, input] of Object.entries(inputs) as [keyof Inputs, Input][]) {
    lines.push(`| ${key} | ${Number(input.value.toFixed(3))} ${input.unit} | ${input.source} | ${input.note} |`);
  }
  return lines.join('\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const prices = loadPrices();
  const bench = loadBenchRows();
  const inputs = modelInputs(bench.rows);
  const costs = costModel(prices, inputs, alarmMetricCount());
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ prices: { region: prices.region, asOf: prices.asOf }, benchAt: bench.at, inputs, costs }, null, 2));
  } else {
    console.log(`\nCost model: ${prices.region} list prices of ${prices.asOf} (infra/prices.json), free tier not deducted`);
    console.log(bench.at ? `Counts from bench-results/latest.json (${bench.at}) where measured, else defaults\n` : 'No bench-results/latest.json: default counts (run `npm run bench` to measure them)\n');
    console.log(costTable(costs));
    console.log('\nFixed, a month:\n');
    for (const m of costs.monthly) console.log(`  $${m.dollars.toFixed(2).padStart(6)}  ${m.item}`);
    console.log('\nInputs:\n');
    console.log(inputTable(inputs));
  }
}
