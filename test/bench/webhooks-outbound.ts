import { dynamoCallCounts } from '../../lib/data/call-counts.ts';
import { deliverySendCount } from '../../lib/data/delivery-queue.ts';
import { newEvent } from '../../lib/domain/events.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { fanOut } from '../../lib/services/event-delivery.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { startReceiver } from '../support/receiver.ts';
import { throughput, type Row } from './measure.ts';

const SUBSCRIPTIONS = 2;

const calls = (counts: Record<string, number>, ...commands: string[]) => commands.reduce((sum, c) => sum + (counts[c] ?? 0), 0);

/**
 * Outbound webhooks (docs/webhooks-outbound.md): (1) events delivered per second through the local
 * pipeline, from `POST /v1/products` through the event item, the table stream, the fan-out, the
 * delivery queue and the worker to a real receiver on loopback, with two subscriptions; (2) what one
 * event costs per subscription: the fan-out's Query and SendMessageBatch calls, and the worker's
 * GetItem (the subscription) and UpdateItem (the delivery log), counted in this process while the
 * fan-out runs alone on events carried in the message (as every event under 200 kB is).
 */
export async function benchWebhooksOutbound(stack: StackInfo, count: number, concurrency: number): Promise<Row[]> {
  const receiver = await startReceiver();
  try {
    const { keys, organization } = await createOrganization('Bench webhooks');
    const headers = { authorization: `Bearer ${keys.live.key}`, 'content-type': 'application/json' };
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const created = await fetch(`${stack.url}/v1/event-subscriptions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url(`/bench-${i}`), events: ['product.created'] }),
      });
      if (created.status !== 201) throw new Error(`subscribe: ${created.status} ${await created.text()}`);
    }

    // (1) End to end: products created through the API, each event to both subscriptions.
    const events = Math.max(50, Math.floor(count / 4));
    const started = process.hrtime.bigint();
    await throughput(
      async (i) => {
        const response = await fetch(`${stack.url}/v1/products`, { method: 'POST', headers, body: JSON.stringify({ name: `Bench ${i}`, category: 'wine', gtin: uniqueGtin13() }) });
        if (response.status !== 201) throw new Error(`create product: ${response.status} ${await response.text()}`);
      },
      events,
      concurrency,
    );
    const apiSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    await receiver.waitFor((r) => r.length >= events * SUBSCRIPTIONS, 300_000);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    // From the event's creation (in the API's transaction) to its arrival at the receiver.
    const latencies = receiver.received.map((r) => r.at - Date.parse((JSON.parse(r.body) as { createdAt: string }).createdAt)).sort((a, b) => a - b);
    const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;

    // (2) Calls per event and subscription, the fan-out and the worker alone.
    const tenant = { orgId: organization.orgId, environment: 'live' as const };
    const sample = 200;
    const before = { db: dynamoCallCounts(), sends: deliverySendCount(), received: receiver.received.length };
    for (let i = 0; i < sample; i++) {
      await fanOut([{ tenant, event: newEvent('product.created', { productId: `bench-${i}` }, { actor: { type: 'system', id: 'bench' }, requestId: null }) }]);
    }
    await receiver.waitFor((r) => r.length >= before.received + sample * SUBSCRIPTIONS, 300_000);
    const after = { db: dynamoCallCounts(), sends: deliverySendCount() };
    const delta = (...commands: string[]) => calls(after.db, ...commands) - calls(before.db, ...commands);
    const deliveries = sample * SUBSCRIPTIONS;
    const fanOutQueries = delta('QueryCommand');
    const workerCalls = delta('GetItemCommand', 'UpdateItemCommand');
    const sends = after.sends - before.sends;

    return [
      { benchmark: 'webhooks out', figure: 'events/s API → stream → fan-out → queue → receiver', value: events / seconds, unit: 'events/s', note: `${SUBSCRIPTIONS} subscriptions each` },
      { benchmark: 'webhooks out', figure: 'deliveries/s to the receiver', value: (events * SUBSCRIPTIONS) / seconds, unit: 'POST/s' },
      { benchmark: 'webhooks out', figure: 'baseline: POST /v1/products alone, same run', value: events / apiSeconds, unit: 'req/s', note: 'the API is the bound: events cannot arrive faster than they are made' },
      { benchmark: 'webhooks out', figure: 'event → receiver, p50 / p90', value: percentile(0.5), unit: 'ms', note: `p90 ${percentile(0.9)} ms, max ${latencies.at(-1) ?? 0} ms` },
      { benchmark: 'webhooks out', figure: 'DynamoDB calls per event per subscription', value: (fanOutQueries + workerCalls) / deliveries, unit: 'calls', note: `fan-out ${(fanOutQueries / sample).toFixed(2)} Query per event; worker ${(workerCalls / deliveries).toFixed(2)} (GetItem + UpdateItem) per delivery` },
      { benchmark: 'webhooks out', figure: 'SQS sends per event per subscription', value: sends / deliveries, unit: 'calls', note: `${(sends / sample).toFixed(2)} SendMessageBatch per event (≤ 10 subscriptions a call); receives and deletes are the event source mapping's` },
    ];
  } finally {
    await receiver.close();
  }
}
