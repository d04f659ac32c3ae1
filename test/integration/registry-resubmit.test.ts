import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { putRegistrySettings } from '../../lib/data/registry-settings.ts';
import { registrationIdOf } from '../../lib/domain/registry/registration.ts';
import type { RegistrySettings } from '../../lib/domain/registry/settings.ts';
import { call, expectError, newOrg, newSession, type TestOrg } from '../support/api.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { registryEntryErrors } from '../support/registry-schema.ts';
import { until } from '../support/until.ts';

/**
 * Fix and resubmit through HTTP (issue 39 point 6, docs/registry.md#fix-and-resubmit): a wine's
 * registration held by the pre-checks for a commodity code of 4 digits (settings saved before the
 * code's length was checked) stays held when only the settings are fixed, since its entry was built
 * from the old ones; resubmitted, it takes the fixed code, and the next upload file (or, through the
 * registry's API, the outbox) takes it. A rejected registration goes back likewise; a registered or
 * submitted one is a 409 naming status; another tenant's id is a 404 and changes nothing.
 */

type Json = Record<string, any>;

const stack = inject('stack');
const LEI = '529900T8BM49AURSDO55';
/** A heading of 4 digits: the mock takes it, our pre-checks hold it (6, 8 or 10 digits: docs/registry.md#commodity-codes-and-facilities). */
const BAD_CODE = '2204';
const FIXED = { enabled: true, operator: { scheme: 'LEI', identifier: LEI }, facilities: ['4006381000017'], commodityCode: '2204 21 10' };

/**
 * Settings as stored before the API checked a commodity code's length: written to the table
 * directly, since PUT /v1/registry/settings refuses them (422 naming commodityCode).
 */
async function storeOldSettings(org: TestOrg, submission: RegistrySettings['submission']): Promise<void> {
  const settings: RegistrySettings = { enabled: true, operator: { scheme: 'LEI', identifier: LEI }, facilities: ['GLN-4006381000017'], commodityCode: BAD_CODE, submission, updatedAt: new Date().toISOString() };
  await putRegistrySettings({ orgId: org.orgId, environment: 'live' }, settings, []);
}

/** A wine published on the organization's verified brand domain (its default), its backup copy written. */
async function brandWine(org: TestOrg, name: string): Promise<CreatedProduct> {
  const product = await createProduct(org.live, { name });
  await publish(org.live, product.productId);
  const backupUrl = (await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live })).body.backupUrl as string;
  await until(`the backup copy of ${name}`, async () => ((await fetch(backupUrl)).status === 200 ? true : undefined), 60_000);
  return product;
}

async function brandDomainDefault(org: TestOrg): Promise<void> {
  const session = await newSession(org.orgId);
  const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } });
  if (domain.status !== 200) throw new Error(`set-up: default domain: ${domain.status} ${domain.text}`);
}

const registrationOf = (org: TestOrg, product: CreatedProduct) => registrationIdOf(org.orgId, 'live', product.qrCodeUrl);
const read = async (org: TestOrg, id: string): Promise<Json> => {
  const response = await call('GET', `/v1/registry/registrations/${id}`, { key: org.live });
  if (response.status !== 200) throw new Error(`read ${id}: ${response.status} ${response.text}`);
  return response.body;
};
const resubmit = (key: string, id: string, headers: Record<string, string> = {}) => call('POST', `/v1/registry/registrations/${id}/resubmit`, { key, headers });
const files = async (org: TestOrg): Promise<Json> => {
  const response = await call('POST', '/v1/registry/files', { key: org.live, body: { format: 'json' } });
  if (response.status !== 200) throw new Error(`files: ${response.status} ${response.text}`);
  return response.body;
};
const entriesOf = (answer: Json): Json[] => answer.files.flatMap((f: Json) => JSON.parse(f.content) as Json[]);
const codes = (registration: Json): string[] => registration.reasons.map((r: Json) => r.code);

describe('fix and resubmit, by upload files', () => {
  let org: TestOrg;
  let stranger: TestOrg;
  let wine: CreatedProduct;
  let rosé: CreatedProduct;

  beforeAll(async () => {
    [org, stranger] = await Promise.all([newOrg('Resubmit Winery'), newOrg('Resubmit Stranger')]);
    await brandDomainDefault(org);
    await storeOldSettings(org, 'files');
    wine = await brandWine(org, 'Resubmit Riesling');
  }, 120_000);

  it('holds the wine for its commodity code, and holds it still when only the settings are fixed: its entry was built from the old ones', async () => {
    // Act
    const first = await files(org);
    const fixed = await call('PUT', '/v1/registry/settings', { key: org.live, body: FIXED });
    const second = await files(org);
    const held = await read(org, registrationOf(org, wine));

    // Assess
    expect(first.files).toEqual([]);
    expect(first.pendingChecks.map((p: Json) => p.upi)).toEqual([wine.qrCodeUrl]);
    expect(fixed.status).toBe(200);
    expect(fixed.body.commodityCode).toBe('22042110');
    expect(second.files).toEqual([]);
    expect(held).toMatchObject({ status: 'pending_checks', entry: { commodityCode: BAD_CODE } });
    expect(codes(held)).toEqual(['commodity_code_invalid']);
  });

  it('resubmitted, it is pending_checks without reasons with the fixed code, and the next upload file takes it', async () => {
    // Prepare
    const id = registrationOf(org, wine);
    // Act
    const response = await resubmit(org.live, id);
    const after = await files(org);
    const events = await call('GET', '/v1/events?type=registry.registration.resubmitted', { key: org.live });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id, status: 'pending_checks', reasons: [], warnings: [], entry: { commodityCode: '22042110', reoId: `LEI-${LEI}` } });
    expect(entriesOf(after).map((e) => e.upi)).toEqual([wine.qrCodeUrl]);
    expect(entriesOf(after).flatMap((e) => registryEntryErrors(e))).toEqual([]);
    expect(entriesOf(after)[0]?.commodityCode).toBe('22042110');
    expect(after.pendingChecks).toEqual([]);
    expect(await read(org, id)).toMatchObject({ status: 'submitted', reasons: [], correlationId: after.correlationId });
    expect(events.body.data.map((e: Json) => [e.data.object.id, e.data.object.status, e.actor.type])).toEqual([[id, 'pending_checks', 'api_key']]);
  });

  it('refuses a submitted and a registered registration with a 409 naming status, and changes nothing', async () => {
    // Prepare
    const id = registrationOf(org, wine);
    // Act
    const submitted = await resubmit(org.live, id);
    const result = await call('POST', '/v1/registry/results', { key: org.live, rawBody: `upi,status,registryId\n${wine.qrCodeUrl},registered,EU-REG-RS1\n`, headers: { 'content-type': 'text/csv' } });
    const registered = await resubmit(org.live, id);

    // Assess
    expect(expectError(submitted, 409, 'conflict', 'status').message).toMatch(/submitted/);
    expect(result.body).toMatchObject({ registered: 1 });
    expect(expectError(registered, 409, 'conflict', 'status').message).toMatch(/registered/);
    expect(await read(org, id)).toMatchObject({ status: 'registered', registryId: 'EU-REG-RS1' });
  });

  it('takes a rejected registration back to the pre-checks, its registry reasons gone; an Idempotency-Key replays the answer for that registration only', async () => {
    // Prepare: a rosé sent in a file and rejected by the registry's result file
    rosé = await brandWine(org, 'Resubmit Rosé');
    const sent = await files(org);
    const rejected = await call('POST', '/v1/registry/results', { key: org.live, rawBody: `upi,status,errors\n${rosé.qrCodeUrl},rejected,Operator not verified|Facility unknown\n`, headers: { 'content-type': 'text/csv' } });
    const id = registrationOf(org, rosé);
    const before = await read(org, id);
    const key = randomUUID();

    // Act
    const first = await resubmit(org.live, id, { 'idempotency-key': key });
    const replay = await resubmit(org.live, id, { 'idempotency-key': key });
    // The same key on another registration is another request: the registered wine is refused, not answered the rosé's 200.
    const other = await resubmit(org.live, registrationOf(org, wine), { 'idempotency-key': key });

    // Assess
    expect(entriesOf(sent).map((e) => e.upi)).toEqual([rosé.qrCodeUrl]);
    expect(rejected.body).toMatchObject({ rejected: 1 });
    expect(before).toMatchObject({ status: 'rejected', reasons: [{ source: 'registry', message: 'Operator not verified' }, { source: 'registry', message: 'Facility unknown' }] });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id, status: 'pending_checks', reasons: [], correlationId: null, submittedAt: null });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expectError(other, 409, 'conflict', 'status');
    const events = await call('GET', '/v1/events?type=registry.registration.resubmitted', { key: org.live });
    expect(events.body.data.filter((e: Json) => e.data.object.id === id)).toHaveLength(1);
  });

  it('answers a registration already pending_checks without reasons as it is, writing no event', async () => {
    // Prepare: the rosé, resubmitted above
    const id = registrationOf(org, rosé);
    const before = await read(org, id);
    // Act
    const again = await resubmit(org.live, id);
    const events = await call('GET', '/v1/events?type=registry.registration.resubmitted', { key: org.live });
    // Assess
    expect(again.status).toBe(200);
    expect(again.body).toEqual(before);
    expect(events.body.data.filter((e: Json) => e.data.object.id === id)).toHaveLength(1);
  });

  it('is a 404 for another organization, another environment and an id that is none, and changes nothing', async () => {
    // Prepare
    const id = registrationOf(org, rosé);
    const before = await read(org, id);
    // Act
    const theirs = await resubmit(stranger.live, id);
    const otherEnvironment = await resubmit(org.test, id);
    const none = await resubmit(org.live, 'reg_not-an-id');
    const unknown = await resubmit(org.live, registrationIdOf(org.orgId, 'live', `${wine.qrCodeUrl}/10/NOLOT`));
    // Assess
    for (const response of [theirs, otherEnvironment, none, unknown]) expectError(response, 404, 'not_found', 'registrationId');
    expect(JSON.stringify(theirs.body)).not.toContain(rosé.qrCodeUrl);
    expect(await read(org, id)).toEqual(before);
  });

  it('is a 409 naming enabled when registration is off, and needs registry:write', async () => {
    // Prepare
    const id = registrationOf(org, rosé);
    const readOnly = await org.keyWith(['registry:read']);
    expect((await call('PUT', '/v1/registry/settings', { key: org.live, body: { ...FIXED, enabled: false } })).status).toBe(200);
    // Act
    const off = await resubmit(org.live, id);
    const refused = await resubmit(readOnly, id);
    // Assess
    expectError(off, 409, 'conflict', 'enabled');
    expectError(refused, 403, 'permission_error');
  });
});

describe('fix and resubmit, through the registry’s API', () => {
  it('the outbox checks a resubmitted registration again and sends it: the emulator registers the fixed entry', async () => {
    // Prepare: an organization whose entries go out through the API, its wine held for the commodity code
    const org = await newOrg('Resubmit Outbox Winery');
    await brandDomainDefault(org);
    await storeOldSettings(org, 'api');
    const wine = await brandWine(org, 'Resubmit Outbox Riesling');
    const id = registrationOf(org, wine);
    // The backup copy may come after the first check: held for the code alone once it is there.
    const held = await until(
      'the outbox to hold the wine for its commodity code',
      async () => {
        const registration = await read(org, id);
        return registration.status === 'pending_checks' && codes(registration).join() === 'commodity_code_invalid' ? registration : undefined;
      },
      60_000,
    );
    expect((await call('PUT', '/v1/registry/settings', { key: org.live, body: { ...FIXED, submission: 'api' } })).status).toBe(200);

    // Act
    const response = await resubmit(org.live, id);
    const registered = await until(
      'the resubmitted wine registered',
      async () => {
        const registration = await read(org, id);
        return registration.status === 'registered' ? registration : undefined;
      },
      60_000,
    );

    // Assess
    expect(held.entry.commodityCode).toBe(BAD_CODE);
    expect(response.status, response.text).toBe(200);
    expect(registered).toMatchObject({ reasons: [], entry: { commodityCode: '22042110' }, registryId: expect.any(String) });
    const received = (await (await fetch(`${stack.registryBaseUrl}/_emulator/received?reoId=${encodeURIComponent(`LEI-${LEI}`)}`)).json()) as { data: Json[] };
    const sent = received.data.filter((r) => r.entry?.upi === wine.qrCodeUrl);
    expect(sent.map((r) => r.entry.commodityCode)).toEqual(['22042110']);
    expect(registryEntryErrors(sent[0]?.entry)).toEqual([]);
  });
});
