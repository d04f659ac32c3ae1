import { dynamoCallCounts } from '../../lib/data/call-counts.ts';
import { getDomain, markVerified } from '../../lib/data/domains.ts';
import { listRegistrations } from '../../lib/data/registrations.ts';
import { registrationIdOf } from '../../lib/domain/registry/registration.ts';
import { createDomain, setDefaultDomain } from '../../lib/services/domains.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { runOutbox, type OutboxWork } from '../../lib/services/registry-outbox.ts';
import { SERVICE_ORIGIN } from '../../lib/services/service-origin.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { until } from '../support/until.ts';
import type { Row } from './measure.ts';

const WRITES = ['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand'];
const sum = (counts: Record<string, number>, commands: readonly string[]) => commands.reduce((total, c) => total + (counts[c] ?? 0), 0);

/**
 * The registry outbox (docs/registry.md#the-outbox): (1) registrations per second through it, from
 * an items import of `items` batteries (each registration made in its item's transaction) through
 * the table stream, the feed, the outbox queue and the worker to the stack's registry emulator and
 * back to `registered`, against the baseline of the same import's items per second, measured in the
 * same run; (2) DynamoDB writes per registration on the happy path (checked, sent, pending at the
 * registry, then registered), counted in this process while the outbox runs alone: the registrations
 * are made while the settings say files (the outbox leaves them), then worked by calling the worker
 * directly once the settings say api. Every DynamoDB call of this process in that phase is the
 * outbox's: its reads per registration are reported beside.
 */
export async function benchRegistryOutbox(stack: StackInfo, items: number): Promise<Row[]> {
  const { keys, organization } = await createOrganization('Bench registry outbox');
  const tenant = { orgId: organization.orgId, environment: 'live' as const };
  const headers = { authorization: `Bearer ${keys.live.key}`, 'content-type': 'application/json' };
  const api = async (method: string, path: string, body?: unknown, raw?: { body: string; type: string }): Promise<any> => {
    const response = await fetch(`${stack.url}${path}`, { method, headers: raw ? { ...headers, 'content-type': raw.type } : headers, ...(raw ? { body: raw.body } : body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const domain = await createDomain(tenant, { hostname: `bench${Date.now().toString(36)}.fixture.example` }, SERVICE_ORIGIN);
  if ((await markVerified(domain, new Date().toISOString())) !== 'verified') throw new Error('could not verify the bench domain');
  const verified = await getDomain(tenant.orgId, domain.domainId, true);
  if (!verified) throw new Error('the bench domain is gone');
  await setDefaultDomain(tenant, verified, true, SERVICE_ORIGIN);
  const settings = (submission: 'files' | 'api') => ({ enabled: true, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '85076000', submission });
  await api('PUT', '/v1/registry/settings', settings('api'));
  const product = await api('POST', '/v1/products', { name: 'Bench outbox battery', category: 'battery', gtin: uniqueGtin13() });
  await api('POST', '/v1/passports', { productId: product.productId, data: batteryModelData('ev') });
  await api('PUT', `/v1/products/${product.productId}/batches/BENCH`, {});
  const upiOf = (serial: string) => `${product.qrCodeUrl as string}/21/${serial}`;
  const importItems = async (prefix: string, n: number): Promise<string[]> => {
    const serials = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
    const lines = serials.map((serial) => JSON.stringify({ serial, lot: 'BENCH', status: 'active', data: batteryItemData({ digitalLink: upiOf(serial), serial }) })).join('\n');
    const job = await api('POST', `/v1/imports?type=items&productId=${product.productId}&force=true`, undefined, { body: `${lines}\n`, type: 'application/x-ndjson' });
    await until('the items import', async () => ((await api('GET', `/v1/imports/${job.id}`)).status === 'succeeded' ? true : undefined), 600_000, 100);
    return serials;
  };
  const statusOf = async (serials: readonly string[], status: string): Promise<number> => {
    let found = 0;
    let after = '';
    for (;;) {
      const page = await api('GET', `/v1/registry/registrations?status=${status}&granularity=ITEM&limit=100${after}`);
      found += (page.data as { upi: string }[]).filter((r) => serials.includes(r.upi.slice(r.upi.lastIndexOf('/') + 1))).length;
      if (!page.hasMore) return found;
      after = `&starting_after=${page.data.at(-1).id}`;
    }
  };

  // (1) Through the whole road: the import's items per second is the baseline.
  const started = process.hrtime.bigint();
  const serials = await importItems('T', items);
  const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  await until('every registration registered', async () => ((await statusOf(serials, 'registered')) === serials.length ? true : undefined), 600_000, 500);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;

  // (2) Writes per registration, the outbox alone: made while the settings say files, then worked directly.
  const sample = Math.max(20, Math.floor(items / 5));
  await api('PUT', '/v1/registry/settings', settings('files'));
  const quiet = await importItems('W', sample);
  // The backup copies first, so that the checks pass at the first look (the happy path).
  const held: string[] = [];
  for (let after = ''; ; ) {
    const page = await api('GET', `/v1/registry/registrations?status=pending_checks&granularity=ITEM&limit=100${after}`);
    held.push(...(page.data as { entry: { backupURL: string } }[]).map((r) => r.entry.backupURL));
    if (!page.hasMore) break;
    after = `&starting_after=${page.data.at(-1).id}`;
  }
  await until('the backup copies', async () => ((await Promise.all(held.map(async (url) => (await fetch(url)).status))).every((status) => status === 200) ? true : undefined), 120_000, 500);
  await api('PUT', '/v1/registry/settings', settings('api'));
  const works: OutboxWork[] = quiet.map((serial, i) => ({ id: `bench-${i}`, receiptHandle: '', receiveCount: 1, message: { ...tenant, registrationId: registrationIdOf(tenant.orgId, 'live', upiOf(serial)), attempt: 0 } }));
  const before = dynamoCallCounts();
  for (let i = 0; i < works.length; i += 10) await runOutbox(works.slice(i, i + 10));
  // The answers come back pending; the feed asks the worker to read the outcome after REGISTRY_STATUS_POLL_SECONDS.
  // Read from the table, not the API: an API read counts against its key's rate limit with a write.
  const registeredDirect = async (): Promise<number> => {
    let found = 0;
    let cursor: string | undefined;
    do {
      const page = await listRegistrations(tenant, { status: 'registered', granularity: 'ITEM' }, { limit: 100, ...(cursor ? { cursor } : {}) });
      found += page.data.filter((r) => quiet.includes(r.serial ?? '')).length;
      cursor = page.nextCursor;
    } while (cursor);
    return found;
  };
  await until('the sample registered', async () => ((await registeredDirect()) === quiet.length ? true : undefined), 120_000, 500);
  const after = dynamoCallCounts();
  const writes = sum(after, WRITES) - sum(before, WRITES);
  const reads = Object.keys(after).filter((c) => !WRITES.includes(c)).reduce((total, c) => total + (after[c] ?? 0) - (before[c] ?? 0), 0);

  return [
    { benchmark: 'registry outbox', figure: 'registrations/s import → stream → outbox → registry → registered', value: items / seconds, unit: 'reg/s', note: `${items} batteries; the emulator decides after its delay, the outbox asks again after REGISTRY_STATUS_POLL_SECONDS` },
    { benchmark: 'registry outbox', figure: 'baseline: the items import alone, same run', value: items / importSeconds, unit: 'items/s', note: `ratio ${(items / seconds / (items / importSeconds)).toFixed(2)}: registrations cannot be made faster than their items` },
    { benchmark: 'registry outbox', figure: 'DynamoDB writes per registration (happy path)', value: writes / sample, unit: 'writes', note: `goal ≤ 2: one transaction (the record and its event) when claimed and submitted, one when registered (the registry's id rides in the status read's message); ${(reads / sample).toFixed(1)} reads (this bench's list polls included)` },
  ];
}
