import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { batteryModelData } from '../support/battery.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { eventually } from '../support/queues.ts';

/**
 * A battery's life as operations (issue 38, point 13; docs/battery.md#a-batterys-life): Original →
 * Repurposed | Remanufactured | Reused (a handover accepted) → Waste (a waste handover accepted,
 * which makes the waste operator responsible for the passport) → Recycled (declared by that
 * operator: the passport ceases). batteryStatus never changes by PUT or PATCH.
 */

type Json = Record<string, any>;

let maker: TestOrg;
let repurposer: TestOrg;
let wasteOperator: TestOrg;
let ev: CreatedProduct;
let storage: CreatedProduct;
let serials = 0;

const pathOf = (url: string) => new URL(url).pathname;
const nextSerial = (prefix: string) => `${prefix}${process.pid % 1000}N${++serials}`;
const item = (key: string, product: CreatedProduct, serial: string) => call('GET', `/v1/products/${product.productId}/items/${serial}`, { key });
const patchItem = (key: string, product: CreatedProduct, serial: string, body: Json) =>
  call('PATCH', `/v1/products/${product.productId}/items/${serial}`, { key, headers: { 'content-type': 'application/merge-patch+json' }, body });
async function register(key: string, product: CreatedProduct, prefix: string): Promise<string> {
  const serial = nextSerial(prefix);
  const response = await call('PUT', `/v1/products/${product.productId}/items/${serial}?force=true`, { key, body: { data: { generalProductInformation: { batteryStatus: 'Original' } } } });
  if (response.status !== 201) throw new Error(`register ${serial}: ${response.status} ${response.text}`);
  return serial;
}
async function handOver(serial: string, operation: string, to: TestOrg): Promise<Json> {
  const offered = await call('POST', '/v1/handovers', { key: maker.live, body: { productId: ev.productId, serial, toOrgId: to.orgId, operation } });
  if (offered.status !== 201) throw new Error(`offer ${serial}: ${offered.status} ${offered.text}`);
  return offered.body;
}
const accept = (handoverId: string, key: string, body: Json = {}) => call('POST', `/v1/handovers/${handoverId}/accept`, { key, body });
/** A battery of the maker's, handed over as waste to the waste operator, accepted. */
async function wasteBattery(): Promise<{ serial: string; handover: Json }> {
  const serial = await register(maker.live, ev, 'W');
  const handover = await handOver(serial, 'waste', wasteOperator);
  const accepted = await accept(handover.id, wasteOperator.live);
  if (accepted.status !== 200) throw new Error(`accept waste: ${accepted.status} ${accepted.text}`);
  return { serial, handover };
}

beforeAll(async () => {
  [maker, repurposer, wasteOperator] = await Promise.all([newOrg('Cell Maker GmbH'), newOrg('Second Life Storage BV'), newOrg('Battery Recycling SA')]);
  ev = await createProduct(maker.live, { name: 'EVP75 traction battery', category: 'battery' });
  storage = await createProduct(repurposer.live, { name: 'SLS home storage (second life)', category: 'battery' });
  // Complete passports: a battery passport published without asOf is judged on the later of today and 18 February 2027 (docs/battery.md#the-day-judged).
  await publish(maker.live, ev.productId, batteryModelData('ev'));
  await publish(repurposer.live, storage.productId, { ...batteryModelData('ev'), generalProductInformation: { ...batteryModelData('ev').generalProductInformation, batteryCategory: 'stationary' } });
});

describe('point 13: a battery’s life is a state machine of operations', () => {
  it('point 13: PUT and PATCH cannot change batteryStatus; a new battery may say Original', async () => {
    // Prepare
    const serial = await register(maker.live, ev, 'E');

    // Act
    const createdRepurposed = await call('PUT', `/v1/products/${ev.productId}/items/${nextSerial('E')}?force=true`, {
      key: maker.live,
      body: { data: { generalProductInformation: { batteryStatus: 'Repurposed' } } },
    });
    const patched = await patchItem(maker.live, ev, serial, { data: { generalProductInformation: { batteryStatus: 'Reused' } } });
    const put = await call('PUT', `/v1/products/${ev.productId}/items/${serial}?force=true`, { key: maker.live, body: { data: { generalProductInformation: { batteryStatus: 'Waste' } } } });
    const unchanged = await patchItem(maker.live, ev, serial, { data: { generalProductInformation: { batteryStatus: 'Original', puttingIntoService: '2027-03-01T10:00:00Z' } } });
    const after = await item(maker.live, ev, serial);

    // Assess
    expect(expectError(createdRepurposed, 409, 'conflict', 'data.generalProductInformation.batteryStatus').message).toContain('Original → Repurposed');
    expect(expectError(patched, 409, 'conflict', 'data.generalProductInformation.batteryStatus').message).toContain('Original → Reused');
    expect(expectError(put, 409, 'conflict', 'data.generalProductInformation.batteryStatus').message).toContain('Original → Waste');
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(after.body.data.generalProductInformation.batteryStatus).toBe('Original');
    expect(after.body.version).toBe(2);
  });

  it('point 13: a Waste → Original transition is 409 naming both states', async () => {
    // Prepare
    const { serial } = await wasteBattery();
    const before = (await item(maker.live, ev, serial)).body;

    // Act
    const backToOriginal = await patchItem(maker.live, ev, serial, { data: { generalProductInformation: { batteryStatus: 'Original' } } });
    const repurposeWaste = await call('POST', '/v1/handovers', { key: maker.live, body: { productId: ev.productId, serial, toOrgId: repurposer.orgId, operation: 'repurposing' } });
    const after = (await item(maker.live, ev, serial)).body;

    // Assess
    expect(expectError(backToOriginal, 409, 'conflict', 'data.generalProductInformation.batteryStatus').message).toContain('Waste → Original');
    expect(expectError(repurposeWaste, 409, 'conflict', 'serial').message).toContain('Waste → Repurposed');
    expect(after.version).toBe(before.version);
    expect(after.data.generalProductInformation.batteryStatus).toBe('Waste');
  });

  it('point 13: a second handover into one pack is accepted: the pack names both originals', async () => {
    // Prepare
    const [first, second] = [await register(maker.live, ev, 'A'), await register(maker.live, ev, 'B')];
    const pack = await register(repurposer.live, storage, 'P');
    const [offerA, offerB] = [await handOver(first, 'repurposing', repurposer), await handOver(second, 'repurposing', repurposer)];

    // Act
    const acceptedA = await accept(offerA.id, repurposer.live, { productId: storage.productId, serial: pack });
    const acceptedB = await accept(offerB.id, repurposer.live, { productId: storage.productId, serial: pack });
    const packNow = (await item(repurposer.live, storage, pack)).body;
    const [a, b] = [(await item(maker.live, ev, first)).body, (await item(maker.live, ev, second)).body];
    const page = await eventually(async () => {
      const response = await fetch(`${baseUrl()}${pathOf(packNow.digitalLink)}`, { headers: { accept: 'text/html', 'accept-language': 'en' } });
      const text = await response.text();
      return response.status === 200 && text.includes(a.digitalLink) && text.includes(b.digitalLink) ? text : undefined;
    }, 30_000, 'the pack’s page naming both originals');

    // Assess
    expect(acceptedA.status, acceptedA.text).toBe(200);
    expect(acceptedB.status, acceptedB.text).toBe(200);
    expect(packNow.lineage.predecessor).toEqual([
      expect.objectContaining({ digitalLink: a.digitalLink, handoverId: offerA.id, operation: 'repurposing' }),
      expect.objectContaining({ digitalLink: b.digitalLink, handoverId: offerB.id, operation: 'repurposing' }),
    ]);
    expect(packNow.data.generalProductInformation.batteryStatus).toBe('Repurposed');
    expect(a.lineage.successors).toEqual([expect.objectContaining({ digitalLink: packNow.digitalLink, handoverId: offerA.id })]);
    expect(b.lineage.successors).toEqual([expect.objectContaining({ digitalLink: packNow.digitalLink, handoverId: offerB.id })]);
    expect(page.split('Passport of the original battery').length - 1).toBe(2);
  });

  it('point 13: preparation for repurposing is an operation', async () => {
    // Prepare
    const original = await register(maker.live, ev, 'R');
    const prepared = await register(repurposer.live, storage, 'Q');

    // Act
    const offered = await handOver(original, 'preparation_for_repurposing', repurposer);
    const accepted = await accept(offered.id, repurposer.live, { productId: storage.productId, serial: prepared });
    const mine = (await item(repurposer.live, storage, prepared)).body;

    // Assess
    expect(offered).toMatchObject({ operation: 'preparation_for_repurposing', batteryStatus: 'Repurposed', status: 'offered' });
    expect(accepted.status, accepted.text).toBe(200);
    expect(mine.lineage.predecessor).toEqual([expect.objectContaining({ operation: 'preparation_for_repurposing', handoverId: offered.id })]);
    expect(mine.data.generalProductInformation.batteryStatus).toBe('Repurposed');
  });

  it('point 13: a waste handover makes the waste operator responsible', async () => {
    // Prepare
    const serial = await register(maker.live, ev, 'W');
    const offered = await handOver(serial, 'waste', wasteOperator);

    // Act
    const namingAnItem = await accept(offered.id, wasteOperator.live, { productId: storage.productId, serial: 'X1' });
    const accepted = await accept(offered.id, wasteOperator.live);
    const battery = (await item(maker.live, ev, serial)).body;
    const producerEdit = await patchItem(maker.live, ev, serial, { data: { generalProductInformation: { puttingIntoService: '2027-03-01T10:00:00Z' } } });
    const producerRecycles = await call('POST', `/v1/handovers/${offered.id}/recycle`, { key: maker.live });
    const operatorEvents = (await call('GET', '/v1/events?type=handover.accepted', { key: wasteOperator.live })).body.data as Json[];
    const makerEvents = (await call('GET', '/v1/events?type=item.updated', { key: maker.live })).body.data as Json[];
    const publicJson = await call('GET', new URL(battery.digitalLink).pathname, { headers: { accept: 'application/json' } });

    // Assess
    // The public JSON does not tell that the battery is waste (Annex XIII 4(c)): no status, no responsible organization, no handover.
    expect(publicJson.status, publicJson.text).toBe(200);
    for (const secret of [offered.id, 'responsible', 'Waste', wasteOperator.orgId]) expect(publicJson.text).not.toContain(secret);
    expectError(namingAnItem, 422, 'validation_error', 'productId');
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ operation: 'waste', status: 'accepted', batteryStatus: 'Waste', to: { orgId: wasteOperator.orgId }, item: { serial } });
    expect(battery.data.generalProductInformation.batteryStatus).toBe('Waste');
    expect(battery.lineage.responsible).toMatchObject({ orgId: wasteOperator.orgId, handoverId: offered.id });
    expect(expectError(producerEdit, 409, 'conflict', 'serial').message).toContain(wasteOperator.orgId);
    expectError(producerRecycles, 403, 'permission_error');
    expect(operatorEvents.find((e) => e.data.object.id === offered.id)?.actor.type).toBe('api_key');
    expect(makerEvents.find((e) => e.data.object.serial === serial && e.data.object.lineage?.responsible)?.actor).toEqual({ type: 'system', id: offered.id });
  });

  it('point 13: recycled ends the passport with a page that says so, not "withdrawn"', async () => {
    // Prepare
    const original = await register(maker.live, ev, 'O');
    const early = await call('POST', `/v1/handovers/${(await handOver(original, 'repurposing', repurposer)).id}/recycle`, { key: repurposer.live });
    const { serial, handover } = await wasteBattery();
    const link = `${baseUrl()}${pathOf((await item(maker.live, ev, serial)).body.digitalLink)}`;

    // Act
    const recycled = await call('POST', `/v1/handovers/${handover.id}/recycle`, { key: wasteOperator.live });
    const again = await call('POST', `/v1/handovers/${handover.id}/recycle`, { key: wasteOperator.live });
    const producerEdit = await patchItem(maker.live, ev, serial, { status: 'withdrawn' });
    const page = await eventually(async () => {
      const response = await fetch(link, { headers: { accept: 'text/html', 'accept-language': 'en' } });
      const text = await response.text();
      return response.status === 410 ? text : undefined;
    }, 30_000, 'the recycled battery’s page');
    const german = await fetch(link, { headers: { accept: 'text/html', 'accept-language': 'de' } });
    const json = await fetch(link, { headers: { accept: 'application/json' } });
    const events = await Promise.all([maker, wasteOperator].map(async (org) => (await call('GET', '/v1/events?type=item.recycled', { key: org.live })).body.data as Json[]));

    // Assess
    expectError(early, 422, 'validation_error', 'handoverId');
    expect(recycled.status, recycled.text).toBe(200);
    expect(recycled.body.recycledAt).toBeDefined();
    expect(recycled.body.item.lineage.recycled).toMatchObject({ orgId: wasteOperator.orgId, handoverId: handover.id });
    expect(expectError(again, 409, 'conflict', 'handoverId').message).toContain('Recycled → Recycled');
    expectError(producerEdit, 409, 'conflict', 'serial');
    expect(page).toContain('This battery has been recycled');
    expect(page).toContain('ceased to exist');
    expect(page).not.toContain('This product has been withdrawn');
    expect(page).not.toMatch(/<script/i);
    expect(german.status).toBe(410);
    expect(await german.text()).toContain('Diese Batterie wurde recycelt');
    expect(json.status).toBe(410);
    expect(((await json.json()) as Json).error.message).toContain('recycled');
    for (const log of events) expect(log.some((e) => e.data.object.serial === serial)).toBe(true);
  });
});
