/**
 * A webhook receiver on node:http (docs/sdk.md#examples, docs/webhooks-outbound.md#receiving).
 *
 *   PASSPORT_WEBHOOK_SECRET=whsec_… PORT=8080 npx tsx sdk/examples/webhook-receiver.ts
 *
 * Verifies each delivery over the exact bytes received (verifyWebhook: Standard Webhooks), answers
 * 204 at once and works after answering, skips a delivery it has seen (the same `webhook-id` may come
 * twice), and refuses anything unsigned with 400. Prints one JSON line per event.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError } from '@product-passport/sdk';

const secret = process.env.PASSPORT_WEBHOOK_SECRET;
if (!secret) throw new Error('Set PASSPORT_WEBHOOK_SECRET to the subscription’s whsec_… secret');

const seen = new Set<string>();

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let event;
  try {
    event = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.error(`refused a delivery: ${error.message}`);
    res.writeHead(400).end();
    return;
  }
  res.writeHead(204).end();
  if (seen.has(event.id)) return;
  seen.add(event.id);
  // Your work goes here: the event is { id, type, createdAt, actor, requestId, data: { object } }.
  console.log(JSON.stringify({ id: event.id, type: event.type, object: event.data.object }));
});

server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  console.log(`listening on http://${address}:${port}/`);
});
