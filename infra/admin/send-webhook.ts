/**
 * `npm run send-webhook -- FILE --endpoint whe_… --secret whsec_…`: signs FILE's exact bytes as a
 * PIM does (HMAC-SHA256, `sha256=` + hex) and delivers them to the local stack on PORT (default
 * 3000), or to `--url`. WEBHOOK_ENDPOINT and WEBHOOK_SECRET may stand in for the flags.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { endpoint: { type: 'string' }, secret: { type: 'string' }, url: { type: 'string' } },
});
const file = positionals[0];
const endpoint = values.endpoint ?? process.env.WEBHOOK_ENDPOINT;
const secret = values.secret ?? process.env.WEBHOOK_SECRET;
if (!file || !endpoint || !secret) {
  console.error('Usage: npm run send-webhook -- FILE --endpoint whe_… --secret whsec_… [--url http://localhost:3000]');
  process.exit(2);
}
const body = readFileSync(file);
const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const base = values.url ?? `http://localhost:${process.env.PORT ?? 3000}`;
const response = await fetch(`${base}/v1/webhooks/ingest?endpoint=${encodeURIComponent(endpoint)}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
  body,
});
console.log(`${response.status} ${await response.text()}`);
process.exit(response.ok ? 0 : 1);
