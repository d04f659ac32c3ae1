import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createOrganization } from '../../lib/services/organizations.ts';
import { dynamoCallCount } from '../../lib/data/client.ts';
import { scanSendCount } from '../../lib/data/scan-queue.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { throughput, type Row } from './measure.ts';

/**
 * A consumer's scan: GET {qrCodeUrl} as JSON through the local gateway, against a baseline of one
 * raw GetItem plus one SendMessage (the least a counted scan can cost) in the same run.
 */
export async function benchResolver(stack: StackInfo, count: number, concurrency: number): Promise<Row[]> {
  const { keys } = await createOrganization('Bench resolver');
  const key = keys.live.key;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const product = (await fetch(`${stack.url}/v1/products`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench wine', category: 'wine', gtin: '4006381333931' }),
  }).then((r) => r.json())) as { productId: string; qrCodeUrl: string };
  await fetch(`${stack.url}/v1/passports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ productId: product.productId, data: { productType: 'wine', ingredients: ['Grapes', 'Sulphites'] } }),
  });
  const scan = async () => {
    // The scan is the resolver's 307 (docs/resolver.md); following it to the immutable page is not part of the scan.
    const response = await fetch(product.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone)' }, redirect: 'manual' });
    if (response.status !== 307) throw new Error(`scan answered ${response.status}`);
    await response.arrayBuffer();
  };

  const [orgId, environment] = new URL(product.qrCodeUrl).pathname.split('/').filter(Boolean);
  const dynamo = localClient(stack.dynamodbEndpoint, stack.region);
  const sqs = new SQSClient({
    region: stack.region,
    endpoint: stack.sqsEndpoint,
    useQueueUrlAsEndpoint: false,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // The baseline's messages go to a queue of their own, so the aggregator never sees them.
  const { QueueUrl: baselineQueue } = await sqs.send(new CreateQueueCommand({ QueueName: 'bench-baseline' }));
  const baselineScan = async () => {
    await dynamo.send(
      new GetItemCommand({ TableName: stack.tableName, Key: { PK: { S: `T#${orgId}#${environment}` }, SK: { S: 'GTIN#04006381333931' } } }),
    );
    await sqs.send(new SendMessageCommand({ QueueUrl: baselineQueue, MessageBody: '{"v":1}' }));
  };

  const warm = Math.min(200, count);
  await throughput(baselineScan, warm, concurrency);
  await throughput(scan, warm, concurrency);
  const baseline = await throughput(baselineScan, count, concurrency);
  const reads = dynamoCallCount();
  const sends = scanSendCount();
  const resolver = await throughput(scan, count, concurrency);
  const readsPerScan = (dynamoCallCount() - reads) / count;
  const sendsPerScan = (scanSendCount() - sends) / count;
  dynamo.destroy();
  sqs.destroy();

  return [
    { benchmark: 'resolver.scan', figure: 'baseline GetItem + SendMessage', value: baseline, unit: 'req/s' },
    { benchmark: 'resolver.scan', figure: 'GET {qrCodeUrl} (JSON)', value: resolver, unit: 'req/s' },
    { benchmark: 'resolver.scan', figure: 'ratio to baseline', value: resolver / baseline, unit: 'x', note: '1.00 = as fast as the two raw calls' },
    { benchmark: 'resolver.scan', figure: 'DynamoDB calls per scan', value: readsPerScan, unit: 'calls', note: 'aim 1' },
    { benchmark: 'resolver.scan', figure: 'SQS sends per scan', value: sendsPerScan, unit: 'calls', note: 'aim 1' },
  ];
}
