import { beforeAll, describe, expect, it } from 'vitest';
import { setAuthority } from '../../lib/data/organizations.ts';
import { overlayItemData, type BatteryItemData, type BatteryPassportData } from '../../lib/domain/battery/index.ts';
import { audiencesOf, canRead, ELEMENTS, filterByTier, type Reader } from '../../lib/domain/battery/elements.ts';
import { valueAt } from '../../lib/domain/battery/paths.ts';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Audiences through the EN 18222 reads (issues 28 and 38, docs/access.md): every element of a full
 * battery passport, for every reader (anonymous, another organization without a grant, a grantee
 * for the dismantling purpose, one for energy services, one of a grant without a purpose, an
 * authority, the owner), through the by-id, element, by-product, by-date and batch routes; grants
 * that end (revoked, expired), a grant limited to one product, the access log, and a grantee with
 * write access. Access requests: test/integration/access-requests.test.ts.
 */

type Json = Record<string, any>;
const model = batteryModelData('ev');
/** The battery's own data, with identifiers that name it (set once the product has its GTIN). */
let itemData: Json;
const SERIAL = 'ACC0001';
const LOT = 'ACCLOT1';

let owner: TestOrg;
let stranger: TestOrg;
let grantee: TestOrg;
let dismantler: TestOrg;
let aggregator: TestOrg;
let authority: TestOrg;
let battery: CreatedProduct;
let other: CreatedProduct;
const dpp = { product: '', item: '', batch: '', other: '' };
let itemLink = '';

/**
 * The readers: anonymous, another organization without a grant, a grantee for purpose (a) of
 * Art. 77(2) third subparagraph, one for (b), one of a grant without a purpose (`legitimate_interest`,
 * as grants were before purposes), an authority (the mark), the owner.
 */
const READERS = ['public', 'stranger', 'dismantling', 'energy', 'legitimate_interest', 'authority', 'owner'] as const;
type TestReader = (typeof READERS)[number];
const keyOf = (reader: TestReader): string | undefined =>
  ({ public: undefined, stranger: stranger.live, dismantling: dismantler.live, energy: aggregator.live, legitimate_interest: grantee.live, authority: authority.live, owner: owner.live })[reader];
/** Who each reader reads as (lib/domain/battery/access-tiers.ts). */
const READS_AS: Readonly<Record<TestReader, Reader>> = {
  public: 'public',
  stranger: 'public',
  dismantling: ['dismantling_repair_repurposing_recycling'],
  energy: ['energy_services'],
  legitimate_interest: 'legitimate_interest',
  authority: 'authority',
  owner: 'owner',
};
const ACCESS_TIER: Readonly<Record<TestReader, string>> = {
  public: 'public',
  stranger: 'public',
  dismantling: 'legitimate_interest',
  energy: 'legitimate_interest',
  legitimate_interest: 'legitimate_interest',
  authority: 'authority',
  owner: 'owner',
};

/** What a reader may see of `data`: the owner everything, the others their audiences' elements. */
const expected = (data: Json, reader: TestReader): Json => (reader === 'owner' ? data : (filterByTier(data, READS_AS[reader]) as Json));
const read = (path: string, reader: TestReader) => {
  const key = keyOf(reader);
  return call('GET', path, key ? { key } : {});
};

beforeAll(async () => {
  [owner, stranger, grantee, dismantler, aggregator, authority] = await Promise.all([
    newOrg('Access Cell Maker'),
    newOrg('Access Stranger'),
    newOrg('Access Recycler'),
    newOrg('Access Dismantler'),
    newOrg('Access Aggregator'),
    newOrg('Access Market Surveillance'),
  ]);
  await setAuthority(authority.orgId, true);
  battery = await createProduct(owner.live, { name: 'ACC traction battery', category: 'battery' });
  other = await createProduct(owner.live, { name: 'ACC other battery', category: 'battery' });
  await publish(owner.live, battery.productId, model);
  await publish(owner.live, other.productId, model);
  itemData = batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/${SERIAL}`, serial: SERIAL });
  const item = await call('PUT', `/v1/products/${battery.productId}/items/${SERIAL}?force=true`, { key: owner.live, body: { data: itemData } });
  const batch = await call('PUT', `/v1/products/${battery.productId}/batches/${LOT}`, { key: owner.live, body: {} });
  const grant = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: grantee.orgId, tier: 'legitimate_interest', productIds: [battery.productId] } });
  const forDismantling = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: dismantler.orgId, purpose: 'dismantling_repair_repurposing_recycling', productIds: [battery.productId] } });
  const forEnergy = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: aggregator.orgId, tier: 'legitimate_interest', purpose: 'energy_services', productIds: [battery.productId] } });
  for (const r of [item, batch, grant, forDismantling, forEnergy]) if (r.status !== 201) throw new Error(`set-up: ${r.status} ${r.text}`);
  dpp.product = (await call('GET', `/v1/products/${battery.productId}/passport`, { key: owner.live })).body.dppId;
  dpp.other = (await call('GET', `/v1/products/${other.productId}/passport`, { key: owner.live })).body.dppId;
  dpp.item = item.body.dppId;
  dpp.batch = batch.body.dppId;
  itemLink = item.body.digitalLink;
});

/** The item's full view: the model's data with the item's laid over it. */
const itemView = () => overlayItemData(model as BatteryPassportData, itemData as BatteryItemData) as Json;

describe('each reader sees exactly its elements', () => {

  it.each(READERS)('%s: by id (product, item, batch), by product identifier and by date', async (reader) => {
    // Act
    const product = await read(`/v1/dpps/${dpp.product}`, reader);
    const item = await read(`/v1/dpps/${dpp.item}`, reader);
    const batch = await read(`/v1/dpps/${dpp.batch}`, reader);
    const byProduct = await read(`/v1/dppsByProductId/${encodeURIComponent(itemLink)}`, reader);
    const byDate = await read(`/v1/dppsByIdAndDate/${dpp.item}?date=${encodeURIComponent(new Date().toISOString())}`, reader);

    // Assess
    expect(product.status, product.text).toBe(200);
    expect(product.body).toMatchObject({ digitalProductPassportId: dpp.product, granularity: 'model', dppStatus: 'active', accessTier: ACCESS_TIER[reader], uniqueProductIdentifier: battery.qrCodeUrl });
    expect(product.body.audiences).toEqual(audiencesOf(READS_AS[reader]));
    expect(product.body.data).toEqual(expected(model, reader));
    expect(item.body).toMatchObject({ digitalProductPassportId: dpp.item, granularity: 'item', uniqueProductIdentifier: itemLink, unit: { kind: 'item', serial: SERIAL } });
    expect(item.body.data).toEqual(expected(itemView(), reader));
    expect(batch.body.data).toEqual(expected(model, reader));
    expect(byProduct.body.digitalProductPassportId).toBe(dpp.item);
    expect(byProduct.body.data).toEqual(item.body.data);
    expect(byDate.body.data).toEqual(item.body.data);
  });

  it.each(READERS)('%s: every element one by one, 403 naming the element’s audiences for the ones outside its own', async (reader) => {
    // Prepare: every element the item's full view holds
    const view = itemView();
    const elements = ELEMENTS.filter((element) => valueAt(view, element.path) !== undefined);
    expect(elements.length).toBeGreaterThan(40);

    // Act
    const answers: Array<{ element: (typeof ELEMENTS)[number]; status: number; body: Json }> = [];
    for (let i = 0; i < elements.length; i += 10) {
      const part = elements.slice(i, i + 10);
      const responses = await Promise.all(part.map((element) => read(`/v1/dpps/${dpp.item}/elements/${element.path}`, reader)));
      responses.forEach((response, index) => answers.push({ element: part[index]!, status: response.status, body: response.body as Json }));
    }

    // Assess
    for (const { element, status, body } of answers) {
      if (canRead(READS_AS[reader], element.audiences)) {
        expect(status, element.path).toBe(200);
        expect(body.value, element.path).toEqual(valueAt(view, element.path));
        expect(body.audiences, element.path).toEqual(element.audiences);
      } else {
        expect(status, element.path).toBe(403);
        expect(body.error.type).toBe('permission_error');
        expect(body.error.message).toContain(`is read by: ${element.audiences.join(', ')}`);
      }
    }
    expect(answers.some((a) => a.status === 403)).toBe(reader !== 'owner');
  });

  it('point 6: an authority reads points 2 and 3 but not point 4', async () => {
    // Prepare
    const ofPoint = (point: number) => ELEMENTS.filter((element) => element.annexXIII?.point === point);
    const view = itemView();

    // Act
    const whole = await read(`/v1/dpps/${dpp.item}`, 'authority');
    const testReport = await read(`/v1/dpps/${dpp.item}/elements/labeling.resultOfTestReport`, 'authority');
    const stateOfHealth = await read(`/v1/dpps/${dpp.item}/elements/performanceAndDurability.batteryCondition.stateOfCertifiedEnergy`, 'authority');

    // Assess
    expect(whole.body).toMatchObject({ accessTier: 'authority', audiences: ['public', 'authority'] });
    for (const element of [...ofPoint(2), ...ofPoint(3)]) expect(valueAt(whole.body.data, element.path), element.path).toEqual(valueAt(view, element.path));
    for (const element of ofPoint(4)) expect(valueAt(whole.body.data, element.path), element.path).toBeUndefined();
    expect(testReport.status).toBe(200);
    expectError(stateOfHealth, 403, 'permission_error');
    expect(stateOfHealth.body.error.message).toContain('is read by: energy_services');
  });

  it('the linkset of the battery advertises where a reader with credentials reads its tier', async () => {
    // Act
    const linkset = await call('GET', `${new URL(itemLink).pathname}?linkType=linkset`);
    const restricted = ((linkset.body.linkset[0]['https://gs1.org/voc/masterData'] ?? []) as Json[]).find((link) => String(link.href).includes('/v1/dpps/'));
    const asGrantee = await read(new URL(String(restricted?.href)).pathname, 'legitimate_interest');
    // Assess
    expect(restricted?.href).toMatch(new RegExp(`/v1/dpps/${dpp.item}$`));
    expect(asGrantee.body.accessTier).toBe('legitimate_interest');
  });

  it('the public resolver’s JSON holds only public elements, whoever asks', async () => {
    // Act
    const json = await call('GET', new URL(itemLink).pathname, { headers: { accept: 'application/json' } });
    // Assess
    expect(json.status).toBe(200);
    expect(json.body.data).toEqual(filterByTier(itemView(), 'public'));
  });
});

describe('what a grant opens, and for how long', () => {
  it('does not open another product of the owner', async () => {
    // Act
    const otherProduct = await read(`/v1/dpps/${dpp.other}`, 'legitimate_interest');
    const element = await read(`/v1/dpps/${dpp.other}/elements/circularity.sparePartSources`, 'legitimate_interest');
    // Assess
    expect(otherProduct.body.accessTier).toBe('public');
    expect(otherProduct.body.data).toEqual(filterByTier(model, 'public'));
    expectError(element, 403, 'permission_error');
  });

  it('reads public only within 5 seconds of its revocation', async () => {
    // Prepare
    const holder = await newOrg('Access Repairer');
    const grant = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: holder.orgId, tier: 'legitimate_interest' } });
    const held = await call('GET', '/v1/access-grants?as=grantee', { key: holder.live });
    expect((await call('GET', `/v1/dpps/${dpp.product}`, { key: holder.live })).body.accessTier).toBe('legitimate_interest');

    // Act
    const revoked = await call('DELETE', `/v1/access-grants/${grant.body.id}`, { key: owner.live });
    const revokedAt = Date.now();
    let tier = 'legitimate_interest';
    let lastOpenAt = revokedAt;
    while (tier !== 'public' && Date.now() - revokedAt < 30_000) {
      const sentAt = Date.now();
      tier = (await call('GET', `/v1/dpps/${dpp.product}`, { key: holder.live })).body.accessTier;
      if (tier !== 'public') lastOpenAt = sentAt;
    }

    // Assess
    expect(held.body.data.map((g: Json) => g.id)).toContain(grant.body.id);
    expect(revoked.body).toMatchObject({ id: grant.body.id, active: false, revokedAt: expect.any(String) });
    expect(tier).toBe('public');
    expect(lastOpenAt - revokedAt).toBeLessThan(5_000);
  });

  it('reads public only once it expires', async () => {
    // Prepare: a grant that ends in 3 seconds
    const holder = await newOrg('Access Second Life');
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const grant = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: holder.orgId, tier: 'legitimate_interest', expiresAt } });
    expect(grant.status, grant.text).toBe(201);

    // Act: poll until the grant stops opening the passport (bounded)
    let tier = (await call('GET', `/v1/dpps/${dpp.product}`, { key: holder.live })).body.accessTier;
    const openBefore = tier;
    const deadline = Date.now() + 30_000;
    while (tier !== 'public' && Date.now() < deadline) tier = (await call('GET', `/v1/dpps/${dpp.product}`, { key: holder.live })).body.accessTier;
    const read = await call('GET', `/v1/access-grants/${grant.body.id}`, { key: owner.live });

    // Assess
    expect(tier).toBe('public');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(['legitimate_interest', 'public']).toContain(openBefore);
    expect(read.body.active).toBe(false);
  });

  it('refuses grants to yourself, to nobody, in the past, or for a product that is not yours, naming the field', async () => {
    // Act
    const self = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: owner.orgId, tier: 'authority' } });
    const nobody = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: 'org_nobody0000000000', tier: 'authority' } });
    const past = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: grantee.orgId, tier: 'authority', expiresAt: '2020-01-01T00:00:00Z' } });
    const notMine = await call('POST', '/v1/access-grants', { key: stranger.live, body: { granteeOrgId: grantee.orgId, tier: 'authority', productIds: [battery.productId] } });
    const badTier = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: grantee.orgId, tier: 'public' } });
    const neither = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: grantee.orgId } });
    const authorityWithPurpose = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: grantee.orgId, tier: 'authority', purpose: 'energy_services' } });
    const badPurpose = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: grantee.orgId, purpose: 'curiosity' } });
    // Assess
    expectError(self, 422, 'validation_error', 'granteeOrgId');
    expectError(nobody, 422, 'validation_error', 'granteeOrgId');
    expectError(past, 422, 'validation_error', 'expiresAt');
    expectError(notMine, 404, 'not_found', 'productIds[0]');
    expectError(badTier, 422, 'validation_error', 'tier');
    expectError(neither, 422, 'validation_error', 'tier');
    expectError(authorityWithPurpose, 422, 'validation_error', 'purpose');
    expectError(badPurpose, 422, 'validation_error', 'purpose');
  });

  it('answers a grant with its purpose and audiences; one without a purpose (as before purposes) opens both purposes', async () => {
    // Act
    const grants = (await call('GET', '/v1/access-grants?limit=100', { key: owner.live })).body.data as Json[];
    // Assess
    expect(grants.find((g) => g.granteeOrgId === dismantler.orgId)).toMatchObject({ tier: 'legitimate_interest', purpose: 'dismantling_repair_repurposing_recycling', audiences: ['dismantling_repair_repurposing_recycling'], accessRequestId: null });
    expect(grants.find((g) => g.granteeOrgId === aggregator.orgId)).toMatchObject({ tier: 'legitimate_interest', purpose: 'energy_services', audiences: ['energy_services'] });
    expect(grants.find((g) => g.granteeOrgId === grantee.orgId)).toMatchObject({ tier: 'legitimate_interest', purpose: null, audiences: ['dismantling_repair_repurposing_recycling', 'energy_services'] });
  });

  it('a grantee holding both purposes’ grants reads both purposes’ elements, and loses one’s with its revocation', async () => {
    // Prepare
    const holder = await newOrg('Access Both Purposes');
    const a = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: holder.orgId, purpose: 'dismantling_repair_repurposing_recycling', productIds: [battery.productId] } });
    const b = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: holder.orgId, purpose: 'energy_services', productIds: [battery.productId] } });

    // Act
    const both = await call('GET', `/v1/dpps/${dpp.item}`, { key: holder.live });
    await call('DELETE', `/v1/access-grants/${b.body.id}`, { key: owner.live });
    const one = await call('GET', `/v1/dpps/${dpp.item}`, { key: holder.live });

    // Assess
    expect(a.status).toBe(201);
    expect(both.body.audiences).toEqual(['public', 'dismantling_repair_repurposing_recycling', 'energy_services']);
    expect(both.body.data).toEqual(filterByTier(itemView(), 'legitimate_interest'));
    expect(one.body.audiences).toEqual(['public', 'dismantling_repair_repurposing_recycling']);
    expect(one.body.data).toEqual(filterByTier(itemView(), ['dismantling_repair_repurposing_recycling']));
  });
});

describe('the reads’ input budgets (docs/access.md#reads)', () => {
  it('refuses a DPP id, element path and product identifier just over their lengths, and 101 identifiers at once', async () => {
    // Prepare: each one character over its budget (DPP id 200, element path 300, identifier 2048, 100 identifiers)
    const longId = `dpp_${'A'.repeat(197)}`;
    const longPath = `a${'.b'.repeat(150)}`;
    const longIdentifier = `https://id.example/01/09520123456788?${'x'.repeat(2048 - 36)}`;

    // Act
    const byId = await call('GET', `/v1/dpps/${longId}`);
    const element = await call('GET', `/v1/dpps/${dpp.product}/elements/${longPath}`);
    const byProduct = await call('GET', `/v1/dppsByProductId/${encodeURIComponent(longIdentifier)}`);
    const many = await call('POST', '/v1/dppsByProductIds', { body: { productIds: Array.from({ length: 101 }, () => itemLink) } });

    // Assess
    expect(longId).toHaveLength(201);
    expect(longPath).toHaveLength(301);
    expect(longIdentifier).toHaveLength(2049);
    expectError(byId, 404, 'not_found', 'dppId');
    expectError(element, 404, 'not_found', 'elementPath');
    expectError(byProduct, 404, 'not_found', 'productIdentifier');
    expectError(many, 422, 'validation_error', 'productIds');
  });
});

describe('what is logged, and who may write', () => {
  it('logs an authority’s read as passport.accessed in the owner’s events, naming the organization and the elements', async () => {
    // Act
    await read(`/v1/dpps/${dpp.item}`, 'authority');
    await read(`/v1/dpps/${dpp.item}`, 'public');
    const events = (await call('GET', '/v1/events?type=passport.accessed&limit=100', { key: owner.live })).body.data as Json[];
    const theirs = events.filter((event) => event.actor.id === authority.orgId);

    // Assess
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs[0]).toMatchObject({ actor: { type: 'organization', id: authority.orgId, name: 'Access Market Surveillance' }, data: { object: { object: 'passport_access', dppId: dpp.item, reader: { tier: 'authority', via: 'authority' } } } });
    expect(theirs[0]!.data.object.elements).toContain('labeling.resultOfTestReport');
    expect(events.every((event) => event.actor.type === 'organization')).toBe(true);
  });

  it('lets a grantee with write update a battery’s state of health, the version naming it; without write it is 403', async () => {
    // Prepare
    const repairer = await newOrg('Access Workshop');
    await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: repairer.orgId, tier: 'legitimate_interest', productIds: [battery.productId], write: true } });
    const before = (await call('GET', `/v1/products/${battery.productId}/items/${SERIAL}`, { key: owner.live })).body;
    const patch = { data: { performanceAndDurability: { batteryCondition: { stateOfCertifiedEnergy: { stateOfCertifiedEnergyValue: 91.5, lastUpdate: '2029-01-15T10:00:00Z' } } } } };

    // Act
    const written = await call('PATCH', `/v1/dpps/${dpp.item}`, { key: repairer.live, headers: { 'content-type': 'application/merge-patch+json' }, body: patch });
    const refused = await call('PATCH', `/v1/dpps/${dpp.item}`, { key: grantee.live, headers: { 'content-type': 'application/merge-patch+json' }, body: patch });
    const stranger_ = await call('PATCH', `/v1/dpps/${dpp.item}`, { key: stranger.live, headers: { 'content-type': 'application/merge-patch+json' }, body: patch });
    const after = (await call('GET', `/v1/products/${battery.productId}/items/${SERIAL}`, { key: owner.live })).body;
    const previous = (await call('GET', `/v1/products/${battery.productId}/items/${SERIAL}?at=${encodeURIComponent(before.updatedAt)}`, { key: owner.live })).body;
    const events = (await call('GET', '/v1/events?type=item.updated&limit=20', { key: owner.live })).body.data as Json[];

    // Assess
    expect(written.status, written.text).toBe(200);
    expect(after.version).toBe(before.version + 1);
    expect(after.updatedBy).toBe(repairer.orgId);
    expect(after.data.performanceAndDurability.batteryCondition.stateOfCertifiedEnergy.stateOfCertifiedEnergyValue).toBe(91.5);
    expect(after.previousDigest).toBe(before.digest);
    expect(previous.updatedBy).toBeUndefined();
    expect(events.find((event) => event.data.object.version === after.version && event.data.object.serial === SERIAL)?.actor).toMatchObject({ type: 'organization', id: repairer.orgId });
    expectError(refused, 403, 'permission_error');
    expectError(stranger_, 404, 'not_found');
  });
});

describe("the third review's findings (docs/security.md#the-third-review-issue-37)", () => {
  const MERGE = { 'content-type': 'application/merge-patch+json' };
  /** A battery of its own (the other tests change SERIAL), and a repairer holding a write grant on it. */
  async function writableBattery(serial: string) {
    const repairer = await newOrg(`Access Workshop ${serial}`);
    const data = batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/${serial}`, serial });
    const put = await call('PUT', `/v1/products/${battery.productId}/items/${serial}?force=true`, { key: owner.live, body: { data } });
    const grant = await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: repairer.orgId, tier: 'legitimate_interest', productIds: [battery.productId], write: true } });
    if (put.status !== 201 || grant.status !== 201) throw new Error(`set-up: ${put.text} ${grant.text}`);
    return { repairer, dppId: put.body.dppId as string, item: put.body as Json, data };
  }

  it('attack: a grantee with write cannot withdraw, move, empty or re-identify a battery: 403 naming the field, and the item stays as it was', async () => {
    // Prepare
    const { repairer, dppId, item, data } = await writableBattery('ACCW0001');
    const condition = (change: Json) => ({ data: { performanceAndDurability: { batteryCondition: change } } });
    const attempts: Array<[Json, string]> = [
      [{ status: 'withdrawn' }, 'status'],
      [{ lot: 'OTHERLOT' }, 'lot'],
      [{ lineage: { from: [] } }, 'lineage'],
      [{ data: null }, 'data'],
      [{ data: { generalProductInformation: { productIdentifier: 'https://id.evil.example/01/09520123456788/21/X' } } }, 'data.generalProductInformation.productIdentifier'],
      [{ data: { generalProductInformation: { batteryPassportIdentifier: 'urn:evil:1' } } }, 'data.generalProductInformation.batteryPassportIdentifier'],
      [{ data: { generalProductInformation: { manufacturingDate: '2020-01-01T00:00:00Z' } } }, 'data.generalProductInformation.manufacturingDate'],
      [{ data: { generalProductInformation: { batteryStatus: 'Waste' } } }, 'data.generalProductInformation.batteryStatus'],
      [condition({ negativeEvents: [] }), 'data.performanceAndDurability.batteryCondition.negativeEvents'],
      [condition({ negativeEvents: null }), 'data.performanceAndDurability.batteryCondition.negativeEvents'],
      [condition({ stateOfCharge: null }), 'data.performanceAndDurability.batteryCondition.stateOfCharge'],
    ];

    // Act
    const answers = [];
    for (const [patch] of attempts) answers.push(await call('PATCH', `/v1/dpps/${dppId}`, { key: repairer.live, headers: MERGE, body: patch }));
    const after = (await call('GET', `/v1/products/${battery.productId}/items/ACCW0001`, { key: owner.live })).body;
    const publicRead = await call('GET', `/v1/dpps/${dppId}`);

    // Assess: each refused with its field named, nothing written, the public form still the owner's
    answers.forEach((answer, i) => expectError(answer, 403, 'permission_error', attempts[i]![1]));
    expect(after.version).toBe(item.version);
    expect(after.status).toBe('active');
    expect(after.data).toEqual(item.data);
    expect(publicRead.body.data.generalProductInformation.productIdentifier).toBe(data.generalProductInformation.productIdentifier);
  });

  it('attack: a grantee adds a negative event and records a state of charge, but keeps every stored event', async () => {
    // Prepare
    const { repairer, dppId, item } = await writableBattery('ACCW0002');
    const stored = item.data.performanceAndDurability.batteryCondition.negativeEvents ?? [];
    const added = { negativeEvent: 'Water ingress found at inspection.', lastUpdate: '2029-02-01T10:00:00Z' };

    // Act
    const appended = await call('PATCH', `/v1/dpps/${dppId}`, {
      key: repairer.live,
      headers: MERGE,
      body: { data: { performanceAndDurability: { batteryCondition: { negativeEvents: [...stored, added], stateOfCharge: { stateOfChargeValue: 40, lastUpdate: '2029-02-01T10:00:00Z' } } } } },
    });

    // Assess
    expect(appended.status, appended.text).toBe(200);
    expect(appended.body.data.performanceAndDurability.batteryCondition.negativeEvents).toEqual([...stored, added]);
    expect(appended.body.version).toBe(item.version + 1);
  });

  it("attack: a grantee's PATCH, even an empty one, is logged as a read of the restricted data it answers", async () => {
    // Prepare
    const { repairer, dppId } = await writableBattery('ACCW0003');

    // Act
    const answer = await call('PATCH', `/v1/dpps/${dppId}`, { key: repairer.live, headers: MERGE, body: {} });
    const events = (await call('GET', '/v1/events?type=passport.accessed&limit=100', { key: owner.live })).body.data as Json[];
    const theirs = events.filter((event) => event.actor.id === repairer.orgId);

    // Assess
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.performanceAndDurability.batteryCondition.stateOfCertifiedEnergy).toBeDefined();
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.data.object).toMatchObject({ dppId, reader: { orgId: repairer.orgId, tier: 'legitimate_interest', via: 'grant', environment: 'live' } });
    expect(theirs[0]!.data.object.elements).toContain('performanceAndDurability.batteryCondition.stateOfCertifiedEnergy');
  });

  it('attack: 100 copies of one identifier are read once and answered once, without credentials too', async () => {
    // Act
    const anonymous = await call('POST', '/v1/dppsByProductIds', { body: { productIds: Array.from({ length: 100 }, () => itemLink) } });
    const keyed = await call('POST', '/v1/dppsByProductIds', { key: stranger.live, body: { productIds: [itemLink, itemLink, battery.qrCodeUrl] } });

    // Assess
    expect(anonymous.status, anonymous.text).toBe(200);
    expect(anonymous.body.data).toHaveLength(1);
    expect(anonymous.body.data[0]).toMatchObject({ productIdentifier: itemLink, dpp: { digitalProductPassportId: dpp.item, accessTier: 'public' } });
    expect(keyed.body.data.map((entry: Json) => entry.productIdentifier)).toEqual([itemLink, battery.qrCodeUrl]);
  });

  it('attack: without credentials a batch read names at most 10 passports (422 naming productIds); with a key up to 100', async () => {
    // Prepare: 11 distinct identifiers
    const eleven = Array.from({ length: 11 }, (_, i) => `${itemLink.replace(/\/21\/.*$/, '')}/21/NOPE${i}`);

    // Act
    const anonymous = await call('POST', '/v1/dppsByProductIds', { body: { productIds: eleven } });
    const keyed = await call('POST', '/v1/dppsByProductIds', { key: stranger.live, body: { productIds: eleven } });

    // Assess
    expectError(anonymous, 422, 'validation_error', 'productIds');
    expect(keyed.status).toBe(200);
    expect(keyed.body.data).toHaveLength(11);
  });

  it("attack: a grantee's batch of 100 identifiers of one battery writes one passport.accessed event, not 100", async () => {
    // Prepare: a grantee of its own, so that its events are only this request's
    const reader = await newOrg('Access Batch Reader');
    await call('POST', '/v1/access-grants', { key: owner.live, body: { granteeOrgId: reader.orgId, tier: 'legitimate_interest', productIds: [battery.productId] } });
    const identifiers = [...Array.from({ length: 60 }, () => itemLink), ...Array.from({ length: 40 }, () => `${itemLink}?x=1`)];

    // Act
    const answer = await call('POST', '/v1/dppsByProductIds', { key: reader.live, body: { productIds: identifiers } });
    const events = (await call('GET', '/v1/events?type=passport.accessed&limit=100', { key: owner.live })).body.data as Json[];

    // Assess
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toHaveLength(2);
    expect(events.filter((event) => event.actor.id === reader.orgId)).toHaveLength(1);
  });

  it("attack: an authority's test key reads a live battery at the public tier; its live reads are logged with environment and key", async () => {
    // Act
    const testKey = await call('GET', `/v1/dpps/${dpp.product}`, { key: authority.test });
    const element = await call('GET', `/v1/dpps/${dpp.product}/elements/labeling.resultOfTestReport`, { key: authority.test });
    await call('GET', `/v1/dpps/${dpp.product}`, { key: authority.live });
    const events = (await call('GET', '/v1/events?type=passport.accessed&limit=100', { key: owner.live })).body.data as Json[];
    const theirs = events.filter((event) => event.actor.id === authority.orgId);

    // Assess
    expect(testKey.status).toBe(200);
    expect(testKey.body.accessTier).toBe('public');
    expect(testKey.body.data).toEqual(filterByTier(model, 'public'));
    expectError(element, 403, 'permission_error');
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((event) => event.data.object.reader.environment === 'live')).toBe(true);
    expect(theirs[0]!.data.object.reader.keyId).toMatch(/^key_/);
  });

  it('attack: a non-canonical spelling of a DPP id names nothing (404), so the log names one id per passport', async () => {
    // Prepare: another base64url spelling of the same bytes (unused low bits of the last character)
    const variants = [dpp.product, dpp.item, dpp.batch].flatMap((id) => {
      const bytes = Buffer.from(id.slice(4), 'base64url');
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      return [...alphabet].map((c) => `${id.slice(0, -1)}${c}`).filter((v) => v !== id && Buffer.from(v.slice(4), 'base64url').equals(bytes));
    });
    expect(variants.length).toBeGreaterThan(0);

    // Act
    const answers = await Promise.all(variants.slice(0, 3).map((variant) => call('GET', `/v1/dpps/${variant}`)));

    // Assess
    for (const answer of answers) expectError(answer, 404, 'not_found', 'dppId');
  });

  it('attack: grant-and-revoke cycles towards one organization stop at 20 actions an hour: the 21st is 429 and writes nothing in either log', async () => {
    // Prepare
    const [pusher, target, bystander] = await Promise.all([newOrg('Access Pusher'), newOrg('Access Target'), newOrg('Access Bystander')]);
    const statuses: number[] = [];

    // Act: 10 create-and-revoke cycles (20 actions), then one more create
    for (let cycle = 0; cycle < 10; cycle++) {
      const created = await call('POST', '/v1/access-grants', { key: pusher.live, body: { granteeOrgId: target.orgId, tier: 'legitimate_interest' } });
      statuses.push(created.status, (await call('DELETE', `/v1/access-grants/${created.body.id}`, { key: pusher.live })).status);
    }
    const over = await call('POST', '/v1/access-grants', { key: pusher.live, body: { granteeOrgId: target.orgId, tier: 'legitimate_interest' } });
    const elsewhere = await call('POST', '/v1/access-grants', { key: pusher.live, body: { granteeOrgId: bystander.orgId, tier: 'legitimate_interest' } });
    const targetLog = (await call('GET', '/v1/events?limit=100', { key: target.live })).body.data as Json[];

    // Assess
    expect(statuses.every((status) => status === 201 || status === 200)).toBe(true);
    expectError(over, 429, 'rate_limit_error');
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(targetLog.filter((event) => String(event.type).startsWith('access_grant.'))).toHaveLength(20);
    expect(elsewhere.status).toBe(201);
  });
});
