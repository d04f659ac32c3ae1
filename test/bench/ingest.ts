import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createOrganization } from '../../lib/services/organizations.ts';
import { dynamoCallCount } from '../../lib/data/client.ts';
import { checkDigit } from '../../lib/domain/gtin.ts';
import { createEndpoint } from '../../lib/services/webhooks.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { REPO_ROOT } from '../../infra/local/stack.ts';
import { throughput, type Row } from './measure.ts';

/**
 * Signed webhook deliveries of the sample headless-CMS payload through the local gateway: new products
 * (create product, supplier reuse, passport v1) and repeated deliveries (nothing written), against
 * raw GetItem calls on the same DynamoDB Local in the same run.
 */
export async function benchIngest(stack: StackInfo, count: number, concurrency: number): Promise<Row[]> {
  const { organization } = await createOrganization('Bench ingest');
  const { endpoint, secret } = await createEndpoint({ orgId: organization.orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
  const sample = JSON.parse(readFileSync(`${REPO_ROOT}/events/webhooks/headless-cms-product.json`, 'utf8'));
  const body = (i: number) => {
    const gtinBody = `49${String(i).padStart(10, '0')}`;
    sample.entity.attributes.barcode[0].barcode_number = `${gtinBody}${checkDigit(gtinBody)}`;
    return JSON.stringify(sample);
  };
  const deliver = async (payload: string) => {
    const response = await fetch(`${stack.url}/v1/webhooks/ingest?endpoint=${endpoint.endpointId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}` },
      body: payload,
    });
    if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
    await response.arrayBuffer();
  };
  const deliveries = Math.min(count, 1000);
  const raw = localClient(stack.dynamodbEndpoint, stack.region);
  const getItem = () => raw.send(new GetItemCommand({ TableName: stack.tableName, Key: { PK: { S: `WHE#${endpoint.endpointId}` }, SK: { S: 'WHE' } } }));

  await throughput(getItem, 200, concurrency);
  const baseline = await throughput(getItem, deliveries, concurrency);
  let calls = dynamoCallCount();
  const fresh = await throughput((i) => deliver(body(i)), deliveries, concurrency);
  const freshCalls = (dynamoCallCount() - calls) / deliveries;
  calls = dynamoCallCount();
  const repeated = await throughput((i) => deliver(body(i)), deliveries, concurrency);
  const repeatedCalls = (dynamoCallCount() - calls) / deliveries;
  raw.destroy();

  return [
    { benchmark: 'ingest', figure: 'baseline raw GetItem', value: baseline, unit: 'req/s' },
    { benchmark: 'ingest', figure: 'new-product deliveries', value: fresh, unit: 'req/s', note: `ratio ${(fresh / baseline).toFixed(2)}` },
    { benchmark: 'ingest', figure: 'DynamoDB calls per new-product delivery', value: freshCalls, unit: 'calls' },
    { benchmark: 'ingest', figure: 'repeated deliveries (duplicate)', value: repeated, unit: 'req/s', note: `ratio ${(repeated / baseline).toFixed(2)}` },
    { benchmark: 'ingest', figure: 'DynamoDB calls per repeated delivery', value: repeatedCalls, unit: 'calls' },
  ];
}
