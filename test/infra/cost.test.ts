import { describe, expect, it } from 'vitest';
import type { Row } from '../bench/measure.ts';
import { COMPONENTS, costModel, costTable, loadPrices, modelInputs, total } from '../bench/cost.ts';
import type { FunctionSpec } from '../../infra/functions.ts';

const prices = loadPrices();
const FUNCTIONS: Record<string, FunctionSpec> = {
  resolver: { entry: 'x.ts', description: '', memoryMb: 1024, timeoutSeconds: 5, grants: { table: [] } },
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
const row = (benchmark: string, figure: string, value: number): Row => ({ benchmark, figure, value, unit: '' });

describe('price table', () => {
  it('is dated, for eu-central-1, with a positive price for everything the model uses', () => {
    // Act
    const numbers = JSON.stringify(prices).match(/:\s*-?\d+(\.\d+)?(e-?\d+)?/g) ?? [];

    // Assess
    expect(prices.region).toBe('eu-central-1');
    expect(prices.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(numbers.length).toBeGreaterThan(10);
    for (const n of numbers) expect(Number(n.replace(/^:\s*/, ''))).toBeGreaterThan(0);
  });
});

describe('cost model', () => {
  it('takes the counts the benchmark measured and falls back to the documented defaults', () => {
    // Prepare
    const rows = [row('resolver.scan', 'DynamoDB calls per scan', 2), row('pipeline', 'write units per scan, batch 100', 1.5)];

    // Act
    const inputs = modelInputs(rows, FUNCTIONS);

    // Assess
    expect(inputs.scanReads).toMatchObject({ value: 2, source: 'bench: resolver.scan / DynamoDB calls per scan' });
    expect(inputs.scanWriteUnits).toMatchObject({ value: 1.5 });
    expect(inputs.scanSends).toMatchObject({ value: 1, source: 'default' });
    expect(inputs.scanBatch).toMatchObject({ value: 100, source: 'infra/functions.ts: aggregator' });
    expect(inputs.resolverMemoryMb.value).toBe(1024);
  });

  it('prices one scan as CloudFront, API, two Lambda functions, DynamoDB and SQS, per million', () => {
    // Prepare
    const inputs = modelInputs([], FUNCTIONS);

    // Act
    const costs = costModel(prices, inputs, 10);

    // Assess
    expect(costs.scan['HTTP API']).toBeCloseTo(prices.httpApi.requestsPerMillion, 10);
    expect(costs.scan['Lambda requests']).toBeCloseTo(prices.lambda.requestsPerMillion * 1.01, 10);
    expect(costs.scan['DynamoDB reads']).toBeCloseTo(0.5 * prices.dynamodb.readRequestUnitsPerMillion, 10);
    expect(costs.scan['DynamoDB writes']).toBeCloseTo(3 * prices.dynamodb.writeRequestUnitsPerMillion, 10);
    // SendMessage, plus a tenth of a ReceiveMessage and of a DeleteMessageBatch per message.
    expect(costs.scan.SQS).toBeCloseTo(1.2 * prices.sqs.requestsPerMillion, 10);
    expect(costs.scan['Lambda compute (Arm)']).toBeCloseTo((0.03 * 1 + (0.25 * 0.5) / 100) * prices.lambda.armGbSecond * 1e6, 10);
    expect(total(costs.scan)).toBeCloseTo(COMPONENTS.reduce((sum, c) => sum + costs.scan[c], 0), 10);
    expect(costs.api.CloudFront).toBe(0);
    expect(costs.api.SQS).toBe(0);
  });

  it('does not count the API\'s rate-limit writes as reads', () => {
    // Prepare
    const rows = [row('products.get', 'DynamoDB calls per request', 1.1), row('products.get', 'rate-limit writes per request', 0.1)];

    // Act
    const inputs = modelInputs(rows, FUNCTIONS);

    // Assess
    expect(inputs.apiReads.value).toBeCloseTo(1, 10);
    expect(inputs.apiWriteUnits.value).toBeCloseTo(0.1, 10);
  });

  it('scales a component with its count', () => {
    // Prepare
    const once = modelInputs([row('products.get', 'DynamoDB calls per request', 1)], FUNCTIONS);
    const twice = modelInputs([row('products.get', 'DynamoDB calls per request', 2)], FUNCTIONS);

    // Act
    const a = costModel(prices, once, 10).api;
    const b = costModel(prices, twice, 10).api;

    // Assess
    expect(b['DynamoDB reads']).toBeCloseTo(2 * a['DynamoDB reads'], 12);
    expect(b['HTTP API']).toBe(a['HTTP API']);
  });

  it('prints a Markdown table with a line per component and the totals', () => {
    // Act
    const table = costTable(costModel(prices, modelInputs([], FUNCTIONS), 10));

    // Assess
    expect(table.split('\n')).toHaveLength(2 + COMPONENTS.length + 1);
    expect(table).toContain('| **Total** |');
  });
});
