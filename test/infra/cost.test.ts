import { describe, expect, it } from 'vitest';
import type { Row } from '../bench/measure.ts';
import { accessLogLineBytes, COMPONENTS, costModel, costTable, goalLines, modelInputs, total } from '../bench/cost.ts';
import { PRICES, priceLines, REGIONS } from '../bench/prices.ts';
import type { FunctionSpec } from '../../infra/functions.ts';
import type { Route } from '../../lib/api/routes.ts';

const prices = PRICES['eu-central-1'];
const FUNCTIONS: Record<string, FunctionSpec> = {
  resolver: { entry: 'x.ts', description: '', memoryMb: 512, timeoutSeconds: 5, grants: { table: [] }, functionUrl: true },
  aggregator: {
    entry: 'x.ts',
    description: '',
    memoryMb: 512,
    timeoutSeconds: 30,
    grants: { table: [] },
    trigger: { kind: 'sqs', queue: 'scan', batchSize: 100, maxBatchingWindowSeconds: 5 },
  },
  products: { entry: 'x.ts', description: '', memoryMb: 512, timeoutSeconds: 10, grants: { table: [] } },
};
const ROUTES: Pick<Route, 'method' | 'path' | 'function'>[] = [
  { method: 'GET', path: '/{orgId}/{environment}/01/{gtin}', function: 'resolver' },
  { method: 'GET', path: '/{orgId}/{environment}/p/{gtin}/{version}/{page}', function: 'resolver' },
  { method: 'GET', path: '/v1/products/{productId}', function: 'products' as Route['function'] },
];
const row = (benchmark: string, figure: string, value: number): Row => ({ benchmark, figure, value, unit: '' });

describe('price table', () => {
  it.each(REGIONS)('%s: every price has a source, the day it was checked, and says whether it was confirmed', (region) => {
    // Act
    const lines = priceLines(PRICES[region]);

    // Assess
    expect(lines.length).toBeGreaterThanOrEqual(14);
    for (const { item, price } of lines) {
      expect(price.source, item).toMatch(/https:\/\/|infra\/prices\.json/);
      expect(price.checked, item).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(typeof price.confirmed, item).toBe('boolean');
      expect(price.value, item).toBeGreaterThanOrEqual(0);
    }
    // Only function URLs are free.
    expect(lines.filter((l) => l.price.value === 0).map((l) => l.item)).toEqual(['functionUrlRequestsPerMillion']);
  });
});

describe('cost model', () => {
  it('takes the counts the benchmark measured, the route table\'s and the function table\'s, and falls back to the documented defaults', () => {
    // Prepare
    const rows = [row('resolver.scan', 'DynamoDB reads per scan', 2), row('pipeline', 'write units per scan, batch 100', 0.4), row('resolver.function', 'modelled warm duration at 512 MB', 17)];

    // Act
    const inputs = modelInputs(rows, FUNCTIONS, ROUTES);

    // Assess
    expect(inputs.scanReads).toMatchObject({ value: 2, source: 'bench: resolver.scan / DynamoDB reads per scan' });
    expect(inputs.scanWriteUnits).toMatchObject({ value: 0.4 });
    expect(inputs.resolverMs).toMatchObject({ value: 17, source: 'bench: resolver.function / modelled warm duration at 512 MB' });
    expect(inputs.scanSends).toMatchObject({ value: 1, source: 'default' });
    expect(inputs.scanBatch).toMatchObject({ value: 100, source: 'infra/functions.ts: aggregator' });
    expect(inputs.scanCloudFrontRequests.value).toBe(2);
    expect(inputs.scanApiGatewayRequests.value).toBe(0);
  });

  it('counts an API Gateway request per scan only when the resolver is not behind its function URL, and a CloudFront Function only without a custom domain', () => {
    // Prepare
    const behindApi = { ...FUNCTIONS, resolver: { ...FUNCTIONS.resolver!, functionUrl: false } };

    // Act
    const before = costModel(prices, modelInputs([], behindApi, ROUTES), 10);
    const after = costModel(prices, modelInputs([], FUNCTIONS, ROUTES), 10);
    const defaultDomain = costModel(prices, modelInputs([], FUNCTIONS, ROUTES, { customResolverDomain: false }), 10);

    // Assess
    expect(before.scan['HTTP API']).toBeCloseTo(1.01 * prices.httpApiRequestsPerMillion.value, 10);
    expect(after.scan['HTTP API']).toBe(0);
    expect(after.scan['CloudFront Functions']).toBe(0);
    expect(defaultDomain.scan['CloudFront Functions']).toBeCloseTo(prices.cloudfrontFunctionsPerMillion.value, 10);
  });

  it('prices one scan as two CloudFront requests, two Lambda functions, DynamoDB and SQS, per million, with no log bytes at the quiet levels', () => {
    // Prepare
    const inputs = modelInputs([], FUNCTIONS, ROUTES);

    // Act
    const costs = costModel(prices, inputs, 10);

    // Assess
    expect(costs.scan['CloudFront requests']).toBeCloseTo(2 * prices.cloudfrontHttpsRequestsPerMillion.value, 10);
    expect(costs.scan['Lambda requests']).toBeCloseTo(prices.lambdaRequestsPerMillion.value * (1.01 + 0.01), 10);
    expect(costs.scan['DynamoDB reads']).toBeCloseTo(1.01 * 0.5 * prices.dynamodbReadUnitsPerMillion.value, 10);
    expect(costs.scan['DynamoDB writes']).toBeCloseTo(3 * prices.dynamodbWriteUnitsPerMillion.value, 10);
    // SendMessage, plus a tenth of a ReceiveMessage and of a DeleteMessageBatch per message.
    expect(costs.scan.SQS).toBeCloseTo(1.2 * prices.sqsRequestsPerMillion.value, 10);
    expect(costs.scan['Lambda compute (Arm)']).toBeCloseTo((1.01 * 0.03 * 0.5 + (0.25 * 0.5) / 100) * prices.lambdaArmGbSecond.value * 1e6, 10);
    expect(costs.scan['CloudWatch Logs']).toBe(0);
    expect(total(costs.scan)).toBeCloseTo(COMPONENTS.reduce((sum, c) => sum + costs.scan[c], 0), 10);
    expect(costs.api['CloudFront requests']).toBe(0);
    expect(costs.api.SQS).toBe(0);
  });

  it('charges the API call its access log line, sized from the stage\'s format and the longest route key', () => {
    // Prepare
    const inputs = modelInputs([], FUNCTIONS, ROUTES);

    // Act
    const costs = costModel(prices, inputs, 10);

    // Assess
    expect(inputs.accessLogBytes.value).toBe(accessLogLineBytes([{ method: 'GET', path: '/v1/products/{productId}' }]));
    expect(inputs.accessLogBytes.value).toBeGreaterThan(100);
    expect(costs.api['CloudWatch Logs']).toBeCloseTo((inputs.accessLogBytes.value / 1024 ** 3) * prices.logsIngestionPerGb.value * 1e6, 10);
  });

  it('does not count the API\'s rate-limit writes as reads', () => {
    // Prepare
    const rows = [row('products.get', 'DynamoDB calls per request', 1.1), row('products.get', 'rate-limit writes per request', 0.1)];

    // Act
    const inputs = modelInputs(rows, FUNCTIONS, ROUTES);

    // Assess
    expect(inputs.apiReads.value).toBeCloseTo(1, 10);
    expect(inputs.apiWriteUnits.value).toBeCloseTo(0.1, 10);
  });

  it('prices us-east-1 below eu-central-1 for the same counts, and says whether each goal is met', () => {
    // Prepare
    const inputs = modelInputs([row('pipeline', 'write units per scan, batch 100', 0.4)], FUNCTIONS, ROUTES);

    // Act
    const frankfurt = costModel(PRICES['eu-central-1'], inputs, 10);
    const virginia = costModel(PRICES['us-east-1'], inputs, 10);
    const lines = goalLines(frankfurt);

    // Assess
    expect(total(virginia.scan)).toBeLessThan(total(frankfurt.scan));
    expect(total(virginia.api)).toBeLessThan(total(frankfurt.api));
    expect(lines[0]).toMatch(/^scans: \$\d+\.\d\d per million \(goal ≤ \$4\.00: (met|NOT met)/);
    expect(lines[1]).toMatch(/^API calls: .*goal ≤ \$1\.90/);
  });

  it('prints a Markdown table with a line per component and the totals of both regions', () => {
    // Act
    const table = costTable(REGIONS.map((region) => costModel(PRICES[region], modelInputs([], FUNCTIONS, ROUTES), 10)));

    // Assess
    expect(table.split('\n')).toHaveLength(2 + COMPONENTS.length + 1);
    expect(table).toContain('| **Total** |');
    expect(table.split('\n')[0]).toContain('us-east-1');
  });
});
