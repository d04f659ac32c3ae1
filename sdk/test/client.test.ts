import { beforeAll, describe, expect, it } from 'vitest';
import { PassportClient, PassportError } from '../src/index.ts';
import { baseUrl, newOrg, type TestOrg } from '../../test/support/api.ts';
import { uniqueGtin13 } from '../../test/support/gtin.ts';
import { startReceiver } from '../../test/support/receiver.ts';
import { sdkClient, WINE } from './support.ts';

/**
 * The SDK against the local stack (docs/sdk.md): one call or more per resource, lists read to the
 * end in both list forms, and the API's refusals as typed errors.
 */
let org: TestOrg;
let client: PassportClient;

beforeAll(async () => {
  org = await newOrg('SDK Winery');
  client = sdkClient(org.live);
});

const wine = (name = 'Riesling SDK') => ({ name, category: 'wine' as const, gtin: uniqueGtin13() });

describe('each resource', () => {
  it('products: create, get, update, withdraw and reinstate, and the QR code as SVG', async () => {
    // Act
    const created = await client.products.create({ ...wine('Riesling 2023'), brand: 'Weingut SDK' });
    const renamed = await client.products.update(created.productId, { name: 'Riesling 2023 trocken' });
    const withdrawn = await client.products.withdraw(created.productId, { reason: 'relabelled' });
    const reinstated = await client.products.reinstate(created.productId);
    const read = await client.products.get(created.productId);
    const svg = await client.products.qr(created.productId, { size: 128 });
    // Assess
    expect(created.qrCodeUrl).toMatch(new RegExp(`/${org.orgId}/live/01/\\d{14}$`));
    expect(renamed.product.name).toBe('Riesling 2023 trocken');
    expect([withdrawn.status, reinstated.status]).toEqual(['withdrawn', 'active']);
    expect(read).toMatchObject({ productId: created.productId, name: 'Riesling 2023 trocken', brand: 'Weingut SDK', status: 'active' });
    expect(svg).toMatch(/^<\?xml|^<svg/);
    expect(svg).toContain('width="128"');
  });

  it('exports.archive: a POST that answers the URL of the organization’s ZIP, which downloads', async () => {
    // Prepare
    const { productId } = await client.products.create(wine('Archived by the SDK'));
    await client.passports.publish({ productId, data: WINE });
    const methods: string[] = [];
    const recording = sdkClient(org.live, { fetch: (request) => (methods.push(`${request.method} ${new URL(request.url).pathname}`), fetch(request)) });
    // Act
    const archive = await recording.exports.archive();
    const zip = await fetch(archive.url);
    // Assess
    expect(methods).toEqual(['POST /v1/exports/archive']);
    expect(archive).toMatchObject({ object: 'archive', files: expect.arrayContaining([{ name: 'manifest.json', bytes: expect.any(Number) }]) });
    expect(zip.status).toBe(200);
    expect((await zip.arrayBuffer()).byteLength).toBe(archive.bytes);
  });

  it('passports: publish, the current version, the history, completeness and the signed credential', async () => {
    // Prepare
    const { productId } = await client.products.create(wine());
    // Act
    const first = await client.passports.publish({ productId, data: WINE });
    const second = await client.passports.publish({ productId, data: { ...WINE, vintage: 2023 } });
    const current = await client.passports.get(productId);
    const asFirst = await client.passports.get(productId, { at: first.createdAt });
    const versions = await client.passports.versions(productId).toArray();
    const completeness = await client.passports.completeness(productId);
    const credential = await client.passports.credential(productId, second.passportId);
    // Assess
    expect([first.version, second.version]).toEqual([1, 2]);
    expect(current).toMatchObject({ passportId: second.passportId, version: 2, data: expect.objectContaining({ vintage: 2023 }) });
    expect(asFirst.version).toBe(1);
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(completeness).toBeTypeOf('object');
    expect(credential.split('.')).toHaveLength(3);
  });

  it('drafts: replace, merge a patch, read, publish as the next version, and discard', async () => {
    // Prepare
    const { productId } = await client.products.create(wine());
    // Act
    await client.drafts.replace(productId, { data: { ...WINE, vintage: 2021 } });
    const patched = await client.drafts.update(productId, { data: { vintage: 2020, colour: null } });
    const read = await client.drafts.get(productId);
    const published = await client.drafts.publish(productId);
    await client.drafts.replace(productId, { data: { colour: 'white' } });
    const discarded = await client.drafts.delete(productId);
    const gone = await client.drafts.get(productId).catch((error: unknown) => error);
    // Assess
    expect(patched.data).toMatchObject({ vintage: 2020 });
    expect(patched.data).not.toHaveProperty('colour');
    expect(read.data).toEqual(patched.data);
    expect(published.version).toBe(1);
    expect(discarded).toBeTypeOf('object');
    expect(gone).toBeInstanceOf(PassportError);
    expect((gone as PassportError).status).toBe(404);
  });

  it('batches and items: register, merge a patch, read, list and draw', async () => {
    // Prepare
    const { productId } = await client.products.create(wine());
    // Act
    const batch = await client.batches.put(productId, 'L-2023/1', { data: { bottlingDate: '2024-03-01' } });
    const patchedBatch = await client.batches.update(productId, 'L-2023/1', { data: { analysis: { alcoholByVolume: 12.5 } } });
    const item = await client.items.put(productId, 'SN-1', { lot: 'L-2023/1' });
    await client.items.put(productId, 'SN-2', {});
    const batches = await client.batches.list(productId).toArray();
    const items = await client.items.list(productId, { limit: 1 }).toArray();
    const readItem = await client.items.get(productId, 'SN-1');
    const batchQr = await client.batches.qr(productId, 'L-2023/1');
    const itemQr = await client.items.qr(productId, 'SN-2');
    // Assess
    expect(batch).toMatchObject({ lot: 'L-2023/1', version: 1 });
    expect(patchedBatch).toMatchObject({ version: 2, data: { bottlingDate: '2024-03-01', analysis: { alcoholByVolume: 12.5 } } });
    expect(item.digitalLink).toMatch(/\/21\/SN-1$/);
    expect(batches.map((b) => b.lot)).toEqual(['L-2023/1']);
    expect(items.map((i) => i.serial)).toEqual(['SN-1', 'SN-2']);
    expect(readItem.lot).toBe('L-2023/1');
    expect([batchQr, itemQr].every((svg) => svg.includes('<svg'))).toBe(true);
  });

  it('suppliers: create, get and list', async () => {
    // Act
    const created = await client.suppliers.create({ name: 'Tonnellerie SDK', role: 'manufacturer', country: 'FR' });
    const read = await client.suppliers.get(created.supplierId);
    const all = await client.suppliers.list().toArray();
    // Assess
    expect(read).toMatchObject({ supplierId: created.supplierId, name: 'Tonnellerie SDK', country: 'FR' });
    expect(all.map((s) => s.supplierId)).toContain(created.supplierId);
  });

  it('analytics: a product’s scans, every day of the window present', async () => {
    // Prepare
    const { productId } = await client.products.create(wine());
    // Act
    const analytics = await client.analytics.product(productId, { start: '2026-01-01', end: '2026-01-07' });
    // Assess
    expect(analytics).toMatchObject({ productId, totalScans: 0, granularity: 'day' });
    expect(analytics.scansByDay).toHaveLength(7);
  });

  it('events: the log by type, and one event', async () => {
    // Prepare
    const { productId } = await client.products.create(wine('Logged'));
    // Act
    const [latest] = await client.events.list({ type: 'product.created', limit: 5 }).toArray(1);
    const one = await client.events.get(latest!.id);
    // Assess
    expect(latest).toMatchObject({ type: 'product.created', data: { object: expect.objectContaining({ productId }) } });
    expect(one.id).toBe(latest!.id);
  });

  it('event subscriptions: create (the secret shown once), update, list, rotate, test, the delivery log and delete', async () => {
    // Prepare
    const receiver = await startReceiver();
    try {
      // Act
      const created = await client.eventSubscriptions.create({ url: receiver.url(), events: ['product.created'], description: 'ERP' });
      const updated = await client.eventSubscriptions.update(created.id, { description: 'ERP, renamed' });
      const listed = await client.eventSubscriptions.list().toArray();
      const rotated = await client.eventSubscriptions.rotateSecret(created.id);
      const ping = await client.eventSubscriptions.test(created.id);
      await receiver.waitFor((received) => received.some((r) => r.body.includes('"ping"')), 45_000);
      const deliveries = await client.eventSubscriptions.deliveries(created.id).toArray();
      const deleted = await client.eventSubscriptions.delete(created.id);
      // Assess
      expect(created.secret).toMatch(/^whsec_/);
      expect(updated.description).toBe('ERP, renamed');
      expect(listed.map((s) => s.id)).toContain(created.id);
      expect(rotated.secret).not.toBe(created.secret);
      expect(deliveries.map((d) => d.id)).toContain(ping.deliveryId);
      expect(deleted).toMatchObject({ id: created.id, deleted: true });
    } finally {
      await receiver.close();
    }
  });

  it('access grants and dpps: a grant to another organization, the passport read by its DPP id, by Digital Link without a key and by GTIN, and the grant revoked', async () => {
    // Prepare
    const grantee = await newOrg('SDK Grantee');
    const { productId, qrCodeUrl } = await client.products.create(wine('Granted'));
    await client.passports.publish({ productId, data: WINE });
    const { dppId, gtin } = await client.passports.get(productId);
    // Act
    const grant = await client.accessGrants.create({ granteeOrgId: grantee.orgId, tier: 'legitimate_interest', productIds: [productId] });
    const held = await sdkClient(grantee.live).accessGrants.list({ as: 'grantee' }).toArray();
    const read = await sdkClient(grantee.live).dpps.get(dppId ?? '');
    const anonymous = await new PassportClient({ baseUrl: baseUrl() }).dpps.byProductId(qrCodeUrl);
    const several = await client.dpps.byProductIds([gtin]);
    const revoked = await client.accessGrants.delete(grant.id);
    const afterwards = await client.accessGrants.get(grant.id);
    // Assess
    expect(grant).toMatchObject({ granteeOrgId: grantee.orgId, tier: 'legitimate_interest', productIds: [productId], active: true });
    expect(held.map((g) => g.id)).toEqual([grant.id]);
    expect(read.digitalProductPassportId).toBe(dppId);
    expect(anonymous.digitalProductPassportId).toBe(dppId);
    expect(several.data).toEqual([expect.objectContaining({ productIdentifier: gtin, dpp: expect.objectContaining({ digitalProductPassportId: dppId }) })]);
    expect([revoked.active, afterwards.active]).toEqual([false, false]);
  });

  it('registry: settings saved and read, a passport published gets its registration, read, listed and filtered; one on demand for a passport published before', async () => {
    // Prepare: an organization of its own (registration on changes what its publications write), a passport published before registration is on
    const client = sdkClient((await newOrg('SDK Registry')).live);
    const before = await client.products.create(wine('Registered before'));
    await client.passports.publish({ productId: before.productId, data: WINE });
    // Act
    const saved = await client.registry.updateSettings({ enabled: true, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '22042110' });
    const read = await client.registry.getSettings();
    const { productId, qrCodeUrl } = await client.products.create(wine('Registered'));
    await client.passports.publish({ productId, data: WINE });
    const listed = await client.registry.listRegistrations({ productId }).toArray();
    const one = await client.registry.getRegistration(listed[0]?.id ?? '');
    const created = await client.registry.createRegistrations({ productIds: [before.productId, productId] });
    const models = await client.registry.listRegistrations({ granularity: 'MODEL', status: 'pending_checks' }).toArray();
    // Assess
    expect(saved).toEqual(read);
    expect(read).toMatchObject({ enabled: true, reoId: 'LEI-529900T8BM49AURSDO55', registry: 'production' });
    expect(listed.map((r) => r.upi)).toEqual([qrCodeUrl]);
    expect(one).toEqual(listed[0]);
    expect(created).toEqual({ object: 'registration_creation', created: 1, existing: 1, hasMore: false });
    expect(models.map((r) => r.upi)).toEqual(expect.arrayContaining([qrCodeUrl, before.qrCodeUrl]));
  });

  it('imports: the templates, and a dry run of the CSV template’s example row (the job itself is below, with the 150 products)', async () => {
    // Prepare: the API's own template, its example GTIN replaced (an example never becomes a product)
    const template = await client.imports.templateCsv();
    const exampleGtin = /\r?\n(\d{8,14}),/.exec(template)?.[1] ?? '';
    // Act
    const workbook = await client.imports.templateXlsx();
    const dryRun = await client.imports.create(template.replace(exampleGtin, uniqueGtin13()), { format: 'csv', dryRun: true });
    // Assess
    expect(exampleGtin).not.toBe('');
    expect([...workbook.slice(0, 2)]).toEqual([0x50, 0x4b]);
    expect(dryRun).toMatchObject({ dryRun: true, status: 'succeeded', counts: { rows: 1, created: 1, failed: 0 } });
  });
});

describe('lists', () => {
  it('reads 150 products to the end, in order, in both list forms: cursor pages of the JSON list and Link pages of the export', async () => {
    // Prepare: 150 products in a fresh organization, imported in one file and waited for
    const key = (await newOrg('SDK Pagination Org')).live;
    const requests: string[] = [];
    const counting = sdkClient(key, { fetch: (request) => (requests.push(new URL(request.url).search), fetch(request)) });
    const gtins = Array.from({ length: 150 }, () => uniqueGtin13());
    const file = ['gtin,name,category', ...gtins.map((gtin, i) => `${gtin},Paged ${i},textile`)].join('\r\n');
    const queued = await counting.imports.create(new TextEncoder().encode(file), { format: 'csv', fileName: 'paged.csv' });
    const statuses: string[] = [];
    const job = await counting.imports.wait('id' in queued ? queued.id : '', { intervalMs: 200, onProgress: (j) => statuses.push(j.status) });
    const jobs = await counting.imports.list().toArray();
    expect(job).toMatchObject({ status: 'succeeded', fileName: 'paged.csv', counts: { rows: 150, created: 150, failed: 0 } });
    expect(statuses.at(-1)).toBe('succeeded');
    expect(jobs.map((j) => j.id)).toEqual([job.id]);
    requests.length = 0;
    // Act
    const listed: string[] = [];
    for await (const product of counting.products.list({ limit: 40 })) listed.push(product.productId);
    const listRequests = [...requests];
    const exported: string[] = [];
    for await (const row of counting.exports.products({ limit: 60 })) exported.push(String(row.gtin));
    const csvPages: string[] = [];
    for await (const page of counting.exports.productPages({ limit: 100 })) csvPages.push(page.text);
    // Assess
    expect(listed).toHaveLength(150);
    expect(listed).toEqual([...new Set(listed)].sort());
    expect(listRequests).toHaveLength(4);
    expect(listRequests.slice(1).every((search) => search.includes(`starting_after=`))).toBe(true);
    expect(exported).toHaveLength(150);
    expect(new Set(exported)).toEqual(new Set(gtins.map((gtin) => gtin.padStart(14, '0'))));
    expect(csvPages).toHaveLength(2);
    expect(csvPages.every((page) => page.startsWith('gtin,'))).toBe(true);
  });
});

describe('errors', () => {
  it('are PassportErrors with the API’s type, code, param and message, the status and the Request-Id', async () => {
    // Prepare
    const { gtin } = wine();
    await client.products.create({ name: 'First', category: 'wine', gtin });
    // Act
    const errors = await Promise.all([
      client.products.get('01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f').catch((e: unknown) => e),
      client.products.create({ name: 'Bad', category: 'wine', gtin: '4006381333932' }).catch((e: unknown) => e),
      client.products.create({ name: 'Again', category: 'wine', gtin }).catch((e: unknown) => e),
      sdkClient(`sk_live_${'Z'.repeat(32)}`).products.page().catch((e: unknown) => e),
    ]);
    // Assess
    expect(errors.every((e) => e instanceof PassportError)).toBe(true);
    const [notFound, invalid, duplicate, unauthenticated] = errors as PassportError[];
    expect(notFound).toMatchObject({ status: 404, type: 'not_found', code: 'not_found' });
    expect(invalid).toMatchObject({ status: 422, type: 'validation_error', param: 'gtin' });
    expect(duplicate).toMatchObject({ status: 409, type: 'duplicate_error', param: 'gtin' });
    expect(unauthenticated).toMatchObject({ status: 401, type: 'authentication_error' });
    for (const error of errors as PassportError[]) {
      expect(error.message.length).toBeGreaterThan(0);
      expect(error.requestId).toMatch(/\S{8,}/);
    }
  });
});
