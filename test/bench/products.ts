import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createOrganization } from '../../lib/auth/organizations.ts';
import { dynamoCallCount } from '../../lib/data/client.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { throughput, type Row } from './measure.ts';

/**
 * GET /v1/products/{id} through the local gateway, against a baseline of raw GetItem calls to the
 * same DynamoDB Local in the same run.
 */
export async function benchProducts(stack: StackInfo, count: number, concurrency: number): Promise<Row[]> {
  const { keys } = await createOrganization('Bench');
  const key = keys.live.key;
  const created = await fetch(`${stack.url}/v1/products`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench wine', category: 'wine', gtin: '4006381333931' }),
  }).then((r) => r.json() as Promise<{ productId: string }>);
  const url = `${stack.url}/v1/products/${created.productId}`;
  const get = async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    if (response.status !== 200) throw new Error(`GET product answered ${response.status}`);
    await response.arrayBuffer();
  };

  const raw = localClient(stack.dynamodbEndpoint, stack.region);
  const organizationId = (await fetch(url, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json()) as { tenantId: string }).tenantId;
  const getItem = () =>
    raw.send(
      new GetItemCommand({
        TableName: stack.tableName,
        Key: { PK: { S: `T#${organizationId}#live` }, SK: { S: `PRODUCT#${created.productId}` } },
      }),
    );

  await throughput(getItem, Math.min(200, count), concurrency);
  await throughput(get, Math.min(200, count), concurrency);
  const baseline = await throughput(getItem, count, concurrency);
  const callsBefore = dynamoCallCount();
  const api = await throughput(get, count, concurrency);
  const callsPerRequest = (dynamoCallCount() - callsBefore) / count;
  raw.destroy();

  return [
    { benchmark: 'products.get', figure: 'baseline raw GetItem', value: baseline, unit: 'req/s' },
    { benchmark: 'products.get', figure: 'GET /v1/products/{id}', value: api, unit: 'req/s' },
    { benchmark: 'products.get', figure: 'ratio to baseline', value: api / baseline, unit: 'x', note: '1.00 = as fast as one raw GetItem' },
    { benchmark: 'products.get', figure: 'DynamoDB calls per request', value: callsPerRequest, unit: 'calls', note: 'warm key cache; aim 1' },
  ];
}
