import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { insertRegistrationIfAbsent } from '../../lib/data/registrations.ts';
import { newRegistration, type RegistrySettings } from '../../lib/domain/registry/settings.ts';
import { call, expectError, newSession, newOrg, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { finishedImport } from '../support/imports.ts';
import { registryEntryErrors } from '../support/registry-schema.ts';
import { until } from '../support/until.ts';

/**
 * The outbox towards the EU registry's API (issue 39 point 3, "done when"; docs/registry.md#the-outbox):
 * an organization whose registrations go out through the API publishes a wine model, a battery model,
 * a lot and 1,000 batteries; the outbox checks and sends each one to the stack's registry emulator,
 * which is taken down (503, for this operator only) half-way and brought back. Every entry is taken
 * exactly once, models and the lot before their items, each valid against the CIRPASS-2 mock's
 * schema; a battery whose backup copy is not there and a wine on the platform's host stay
 * pending_checks with their reasons and are never sent.
 */

type Json = Record<string, any>;

const stack = inject('stack');
// An LEI of its own (ISO 7064 MOD 97-10 check digits 47), so that this operator's outage is no other test's.
const LEI = '5299009OUTBOXTEST047';
const REO_ID = `LEI-${LEI}`;
const SETTINGS = { enabled: true, operator: { scheme: 'LEI', identifier: LEI }, facilities: ['4006381000017'], commodityCode: '85076000', submission: 'api' };
const ITEMS = 1000;
const LOT = 'OBX2026';
const GONE = 'OBXGONE';
const BAD_OPERATOR = 'OBXBADOP';
const serialOf = (i: number) => `OBX${String(i).padStart(4, '0')}`;

let org: TestOrg;
let offDomain: CreatedProduct;
let wine: CreatedProduct;
let battery: CreatedProduct;
/** How many entries the registry had taken when it went down. */
let atOutage = 0;

const itemUpi = (serial: string) => `${battery.qrCodeUrl}/21/${serial}`;
const emulator = async (path: string, body?: unknown): Promise<Json> => {
  const response = await fetch(`${stack.registryBaseUrl}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`emulator ${path}: ${response.status}`);
  return (await response.json()) as Json;
};
/** What the emulator took (201) for this operator, in the order it took them. */
const taken = async (): Promise<Json[]> => ((await emulator(`/_emulator/received?reoId=${encodeURIComponent(REO_ID)}`)).data as Json[]).filter((r) => r.status === 201);

async function registrations(status?: string): Promise<Json[]> {
  const out: Json[] = [];
  let after = '';
  for (;;) {
    const page = await call('GET', `/v1/registry/registrations?limit=100${status ? `&status=${status}` : ''}${after}`, { key: org.live });
    if (page.status !== 200) throw new Error(`list registrations: ${page.status} ${page.text}`);
    out.push(...page.body.data);
    if (!page.body.hasMore) return out;
    after = `&starting_after=${page.body.data.at(-1).id}`;
  }
}

beforeAll(async () => {
  org = await newOrg('Registry Outbox Maker');
  // A wine made before the brand domain became the default: its Digital Link is on the platform's host (locally http://localhost).
  offDomain = await createProduct(org.live, { name: 'OBX wine on the platform host' });
  const session = await newSession(org.orgId);
  const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } });
  if (domain.status !== 200) throw new Error(`set-up: default domain: ${domain.text}`);
  battery = await createProduct(org.live, { name: 'OBX traction battery', category: 'battery' });
  await publish(org.live, battery.productId, batteryModelData('ev'));
  const lot = await call('PUT', `/v1/products/${battery.productId}/batches/${LOT}`, { key: org.live, body: {} });
  if (lot.status !== 201) throw new Error(`set-up: batch: ${lot.text}`);
  // One battery made before registration was on, whose registration names a backup copy that is not there.
  const gone = await call('PUT', `/v1/products/${battery.productId}/items/${GONE}`, { key: org.live, body: { lot: LOT, data: batteryItemData({ digitalLink: itemUpi(GONE), serial: GONE }) } });
  if (gone.status !== 201) throw new Error(`set-up: item ${GONE}: ${gone.status} ${gone.text}`);
  // And one whose registration will name an operator identifier with wrong check digits (settings refuse one; a record can still hold it).
  const badOperator = await call('PUT', `/v1/products/${battery.productId}/items/${BAD_OPERATOR}`, { key: org.live, body: { lot: LOT, data: batteryItemData({ digitalLink: itemUpi(BAD_OPERATOR), serial: BAD_OPERATOR }) } });
  if (badOperator.status !== 201) throw new Error(`set-up: item ${BAD_OPERATOR}: ${badOperator.status} ${badOperator.text}`);

  // Act (the set-up is the act): registration on, through the API.
  const enabled = await call('PUT', '/v1/registry/settings', { key: org.live, body: SETTINGS });
  if (enabled.status !== 200 || enabled.body.submission !== 'api') throw new Error(`set-up: settings: ${enabled.status} ${enabled.text}`);
  const settings: RegistrySettings = { enabled: true, operator: { scheme: 'LEI', identifier: LEI }, facilities: ['GLN-4006381000017'], commodityCode: '85076000', submission: 'api', updatedAt: new Date().toISOString() };
  const gtin = /\/01\/(\d{14})/.exec(battery.qrCodeUrl)?.[1] as string;
  const goneRecord = newRegistration(
    { orgId: org.orgId, environment: 'live' },
    settings,
    { granularity: 'ITEM', digitalLink: itemUpi(GONE), backupURL: String(gone.body.backupUrl).replace(`/21/${GONE}/`, `/21/NOT${GONE}/`), productId: battery.productId, gtin, lot: LOT, serial: GONE },
    new Date().toISOString(),
  );
  if ((await insertRegistrationIfAbsent({ orgId: org.orgId, environment: 'live' }, goneRecord)) !== 'created') throw new Error('set-up: the missing backup copy');
  const badOperatorRecord = newRegistration(
    { orgId: org.orgId, environment: 'live' },
    { ...settings, operator: { scheme: 'LEI', identifier: `${LEI.slice(0, 18)}48` } },
    { granularity: 'ITEM', digitalLink: itemUpi(BAD_OPERATOR), backupURL: String(badOperator.body.backupUrl), productId: battery.productId, gtin, lot: LOT, serial: BAD_OPERATOR },
    new Date().toISOString(),
  );
  if ((await insertRegistrationIfAbsent({ orgId: org.orgId, environment: 'live' }, badOperatorRecord)) !== 'created') throw new Error('set-up: the bad operator');
  // The battery model and its lot, published before: registered on demand.
  const created = await call('POST', '/v1/registry/registrations', { key: org.live, body: { productIds: [battery.productId] } });
  if (created.status !== 200 && created.status !== 201) throw new Error(`set-up: on demand: ${created.status} ${created.text}`);
  await publish(org.live, offDomain.productId);
  wine = await createProduct(org.live, { name: 'OBX Riesling' });
  await publish(org.live, wine.productId);
  const lines = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ serial: serialOf(i + 1), lot: LOT, status: 'active', data: batteryItemData({ digitalLink: itemUpi(serialOf(i + 1)), serial: serialOf(i + 1) }) })).join('\n');
  const queued = await call('POST', `/v1/imports?type=items&productId=${battery.productId}&force=true`, { key: org.live, rawBody: Buffer.from(`${lines}\n`), headers: { 'content-type': 'application/x-ndjson' } });
  if (queued.status !== 202) throw new Error(`set-up: import: ${queued.status} ${queued.text}`);
  const job = await finishedImport(org.live, queued.body.id);
  if (job.body.status !== 'succeeded') throw new Error(`set-up: import: ${job.text}`);

  // Half-way, the registry goes down for this operator; it comes back once the outbox has had to wait.
  await until('half of the entries taken', async () => ((await taken()).length >= (ITEMS + 3) / 2 ? true : undefined), 90_000, 100);
  await emulator('/_emulator/outage', { on: true, reoId: REO_ID });
  atOutage = (await taken()).length;
  await until(
    'the outbox to wait for the registry',
    async () => {
      const queues = (await (await fetch(`${stack.url}/_local/queues`)).json()) as Json;
      return queues.registryOutbox.inflight + queues.registryOutbox.delayed > 0 && (await taken()).length === atOutage ? true : undefined;
    },
    30_000,
    200,
  );
  await emulator('/_emulator/outage', { on: false, reoId: REO_ID });
  await until('every entry registered', async () => ((await registrations('registered')).length >= ITEMS + 3 ? true : undefined), 110_000, 1000);
}, 240_000);

describe('the way out in the settings', () => {
  it('goes out in files when the settings leave submission out, and refuses another way naming submission, storing nothing', async () => {
    // Prepare: the test environment, so that the live settings of the run above stay as they are.
    const { submission: _left, ...withoutSubmission } = SETTINGS;

    // Act
    const saved = await call('PUT', '/v1/registry/settings', { key: org.test, body: withoutSubmission });
    const refused = await call('PUT', '/v1/registry/settings', { key: org.test, body: { ...SETTINGS, submission: 'fax' } });
    const read = await call('GET', '/v1/registry/settings', { key: org.test });

    // Assess
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.submission).toBe('files');
    expectError(refused, 422, 'validation_error', 'submission');
    expect(read.body.submission).toBe('files');
  });
});

describe('the outbox (issue 39 point 3, done when)', () => {
  it('registers the wine model, the battery model, the lot and 1,000 batteries, each taken by the registry exactly once', async () => {
    // Act
    const got = await taken();
    const registered = await registrations('registered');

    // Assess
    const upis = got.map((r) => r.entry.upi as string);
    const expected = [wine.qrCodeUrl, battery.qrCodeUrl, `${battery.qrCodeUrl}/10/${LOT}`, ...Array.from({ length: ITEMS }, (_, i) => itemUpi(serialOf(i + 1)))];
    // The registry went down with entries still to send: those waited, and none was lost or sent twice.
    expect(atOutage).toBeGreaterThan(0);
    expect(atOutage).toBeLessThan(expected.length - 100);
    expect(upis.length).toBe(expected.length);
    expect(new Set(upis)).toEqual(new Set(expected));
    expect(registered.map((r) => r.upi).sort()).toEqual([...expected].sort());
    expect(registered.every((r) => r.registryId && r.registeredAt && r.proofExpiresAt)).toBe(true);
    // Each battery names its lot: the link it waited for.
    expect(registered.filter((r) => r.granularity === 'ITEM').every((r) => r.lot === LOT)).toBe(true);
    const proof = registered[0] as Json;
    expect(Date.parse(proof.proofExpiresAt) - Date.parse(proof.registeredAt)).toBe(90 * 86_400_000);
  });

  it('sends the model and the lot before their batteries (the links go first)', async () => {
    // Act
    const upis = (await taken()).map((r) => r.entry.upi as string);

    // Assess
    const firstItem = upis.findIndex((upi) => upi.includes('/21/'));
    expect(upis.indexOf(battery.qrCodeUrl)).toBeGreaterThanOrEqual(0);
    expect(upis.indexOf(battery.qrCodeUrl)).toBeLessThan(firstItem);
    expect(upis.indexOf(`${battery.qrCodeUrl}/10/${LOT}`)).toBeLessThan(firstItem);
  });

  it('sends only entries valid against the mock registry\'s schema', async () => {
    // Act
    const entries = (await taken()).map((r) => r.entry);

    // Assess
    expect(entries.flatMap((e) => registryEntryErrors(e))).toEqual([]);
  });

  it('holds back a battery whose backup copy is not there, one naming a bad operator identifier and a wine on the platform\'s host, with their reasons, and never sends them', async () => {
    // Act
    const held = await registrations('pending_checks');
    const upis = (await taken()).map((r) => r.entry.upi as string);

    // Assess
    const reasons = Object.fromEntries(held.map((r) => [r.upi, r.reasons.map((reason: Json) => reason.code)]));
    expect(reasons).toEqual({ [itemUpi(GONE)]: ['backup_missing'], [itemUpi(BAD_OPERATOR)]: ['operator_identifier_invalid'], [offDomain.qrCodeUrl]: ['upi_not_https', 'live_url_invalid'] });
    expect(upis).not.toContain(itemUpi(GONE));
    expect(upis).not.toContain(itemUpi(BAD_OPERATOR));
    expect(upis).not.toContain(offDomain.qrCodeUrl);
  });

  it('writes one registry.registration.registered event per registration', async () => {
    // Act
    const listed: Json[] = [];
    let after = '';
    for (;;) {
      const page = await call('GET', `/v1/events?type=registry.registration.registered&limit=100${after}`, { key: org.live });
      listed.push(...page.body.data);
      if (!page.body.hasMore) break;
      after = `&starting_after=${page.body.data.at(-1).id}`;
    }

    // Assess
    expect(listed).toHaveLength(ITEMS + 3);
    expect(new Set(listed.map((e) => e.data.object.upi)).size).toBe(ITEMS + 3);
  });
});

describe('two deliveries of one message (docs/registry.md#the-outbox)', () => {
  it('sends an entry once when SQS gives its message to two workers at once, and registers it', async () => {
    // Prepare: an operator of its own; the registration made while the settings say files (the stack's outbox leaves it), then api.
    const lei = '5299009OUTBOXDUP0130';
    const reoId = `LEI-${lei}`;
    const twice = await newOrg('Registry Outbox Twice');
    const session = await newSession(twice.orgId);
    const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(twice.orgId)}`, { session, body: { default: true } });
    expect(domain.status, domain.text).toBe(200);
    const settings = (submission: string) => ({ ...SETTINGS, operator: { scheme: 'LEI', identifier: lei }, submission });
    expect((await call('PUT', '/v1/registry/settings', { key: twice.live, body: settings('files') })).status).toBe(200);
    const model = await createProduct(twice.live, { name: 'OBX twice battery', category: 'battery' });
    await publish(twice.live, model.productId, batteryModelData('ev'));
    const [held] = (await call('GET', `/v1/registry/registrations?productId=${model.productId}`, { key: twice.live })).body.data as Json[];
    await until('the backup copy', async () => ((await fetch(held?.entry.backupURL)).status === 200 ? true : undefined), 60_000, 200);
    expect((await call('PUT', '/v1/registry/settings', { key: twice.live, body: settings('api') })).status).toBe(200);
    const { runOutbox } = await import('../../lib/services/registry-outbox.ts');
    const message = { orgId: twice.orgId, environment: 'live' as const, registrationId: held?.id as string, attempt: 0 };
    const delivery = (id: string) => ({ id, receiptHandle: `not-a-handle-${id}`, receiveCount: 1, message });

    // Act: the same message twice at once (its visibility ran out while the first worker was at it), and another message of the same record.
    const failed = await Promise.all([runOutbox([delivery('m-1')]), runOutbox([delivery('m-1')]), runOutbox([delivery('m-2')])]);

    // Assess
    expect(failed.flat()).toEqual([]);
    const sent = ((await emulator(`/_emulator/received?reoId=${encodeURIComponent(reoId)}`)).data as Json[]).filter((r) => r.status === 201);
    expect(sent.map((r) => r.entry.upi)).toEqual([model.qrCodeUrl]);
    const registered = await until(
      'the registration registered',
      async () => {
        const read = await call('GET', `/v1/registry/registrations/${held?.id}`, { key: twice.live });
        return read.body.status === 'registered' ? read.body : undefined;
      },
      60_000,
      250,
    );
    expect(registered.registryId).toBe(sent[0]?.registryId);
    const events = await call('GET', '/v1/events?type=registry.registration.submitted&limit=100', { key: twice.live });
    expect(events.body.data.map((e: Json) => e.data.object.id)).toEqual([held?.id]);
  }, 120_000);
});
