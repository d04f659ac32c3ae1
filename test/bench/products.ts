import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { issueApiKey } from '../../lib/services/api-keys.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { setApiKeyRateLimit } from '../../lib/data/api-keys.ts';
import { dynamoCallCount, dynamoCallCounts } from '../../lib/data/call-counts.ts';
import { addToWindow } from '../../lib/data/rate-limits.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { throughput, type Row } from './measure.ts';

/**
 * GET /v1/products/{id} through the local gateway, against a baseline of raw GetItem calls to the
 * same DynamoDB Local in the same run.
 */
export async function benchProducts(stack: StackInfo, count: number, concurrency: number): Promise<Row[]> {
  const { organization, keys } = await createOrganization('Bench');
  const key = keys.live.key;
  // Far below its limit, as most keys are most of the time (the default 1,000 a minute would stop the run).
  await setApiKeyRateLimit(organization.orgId, keys.live.keyId, 100 * count);
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
  const writesBefore = dynamoCallCounts().UpdateItemCommand ?? 0;
  const api = await throughput(get, count, concurrency);
  const callsPerRequest = (dynamoCallCount() - callsBefore) / count;
  const counterWrites = ((dynamoCallCounts().UpdateItemCommand ?? 0) - writesBefore) / count;

  // The same GET by a key whose window is already past half its limit: every request counts exactly.
  const nearLimit = await issueApiKey({ orgId: organization.orgId, environment: 'live', scopes: ['products:read'], name: 'near its limit' });
  await setApiKeyRateLimit(organization.orgId, nearLimit.record.keyId, 4 * count);
  const minute = Math.floor(Date.now() / 60_000) * 60;
  // This minute and the next, in case the run crosses into it.
  for (const windowStart of [minute, minute + 60]) await addToWindow(nearLimit.record.keyId, windowStart, 2 * count + 1, windowStart + 120);
  const getNearLimit = async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${nearLimit.key}` } });
    if (response.status !== 200) throw new Error(`GET product answered ${response.status}`);
    await response.arrayBuffer();
  };
  const exactBefore = dynamoCallCount();
  const exactWritesBefore = dynamoCallCounts().UpdateItemCommand ?? 0;
  await throughput(getNearLimit, count, concurrency);
  const exactCalls = (dynamoCallCount() - exactBefore) / count;
  const exactWrites = ((dynamoCallCounts().UpdateItemCommand ?? 0) - exactWritesBefore) / count;
  raw.destroy();

  return [
    { benchmark: 'products.get', figure: 'baseline raw GetItem', value: baseline, unit: 'req/s' },
    { benchmark: 'products.get', figure: 'GET /v1/products/{id}', value: api, unit: 'req/s' },
    { benchmark: 'products.get', figure: 'ratio to baseline', value: api / baseline, unit: 'x', note: '1.00 = as fast as one raw GetItem' },
    {
      benchmark: 'products.get',
      figure: 'DynamoDB calls per request',
      value: callsPerRequest,
      unit: 'calls',
      note: 'warm key cache, key under half its rate limit: the GetItem + the rate-limit counter ADD, batched up to 10 per instance',
    },
    { benchmark: 'products.get', figure: 'rate-limit writes per request', value: counterWrites, unit: 'WCU', note: 'UpdateItem (1 WCU each) of the counter and of lastUsedAt' },
    { benchmark: 'products.get', figure: 'DynamoDB calls per request, near the limit', value: exactCalls, unit: 'calls', note: 'key past half its limit: every request makes the counter ADD (exact)' },
    { benchmark: 'products.get', figure: 'rate-limit writes per request, near the limit', value: exactWrites, unit: 'WCU', note: 'one ADD per request' },
  ];
}
