import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { batteryModelData } from '../support/battery.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';

/**
 * A battery's second life across two organizations (issue 27, docs/battery.md#second-life): the
 * maker offers a battery to a repurposer, the repurposer accepts naming its own battery, and the two
 * passports link both ways, each as the next version of its digest chain; neither organization can
 * write the other's records, and a third sees nothing.
 */

type Json = Record<string, any>;

let maker: TestOrg;
let repurposer: TestOrg;
let stranger: TestOrg;
let ev: CreatedProduct;
let storage: CreatedProduct;
const ORIGINAL = 'EVP75H0001';
const SECOND = 'SLS0001';

const pathOf = (url: string) => new URL(url).pathname;
const item = (key: string, product: CreatedProduct, serial: string) => call('GET', `/v1/products/${product.productId}/items/${serial}`, { key });
const register = async (key: string, product: CreatedProduct, serial: string) => {
  const response = await call('PUT', `/v1/products/${product.productId}/items/${serial}?force=true`, { key, body: { data: { generalProductInformation: { batteryStatus: 'Original' } } } });
  if (response.status !== 201) throw new Error(`register ${serial}: ${response.status} ${response.text}`);
  return response.body as Json;
};
const offer = (body: Json) => call('POST', '/v1/handovers', { key: maker.live, body: { productId: ev.productId, serial: ORIGINAL, toOrgId: repurposer.orgId, operation: 'repurposing', ...body } });

beforeAll(async () => {
  [maker, repurposer, stranger] = await Promise.all([newOrg('Cell Maker GmbH'), newOrg('Second Life Storage BV'), newOrg('Stranger Ltd')]);
  ev = await createProduct(maker.live, { name: 'EVP75 traction battery', category: 'battery' });
  storage = await createProduct(repurposer.live, { name: 'SLS home storage (second life)', category: 'battery' });
  // Complete passports: a battery passport published without asOf is judged on the later of today and 18 February 2027 (docs/battery.md#the-day-judged).
  await publish(maker.live, ev.productId, batteryModelData('ev'));
  await publish(repurposer.live, storage.productId, { ...batteryModelData('ev'), generalProductInformation: { ...batteryModelData('ev').generalProductInformation, batteryCategory: 'stationary' } });
  await register(maker.live, ev, ORIGINAL);
  await register(repurposer.live, storage, SECOND);
});

describe('a battery handed over for repurposing', () => {
  let original: Json;
  let handover: Json;
  let accepted: Json;

  beforeAll(async () => {
    original = (await item(maker.live, ev, ORIGINAL)).body;
    const offered = await offer({});
    if (offered.status !== 201) throw new Error(`offer: ${offered.status} ${offered.text}`);
    handover = offered.body;
    accepted = await call('POST', `/v1/handovers/${handover.id}/accept`, { key: repurposer.live, body: { productId: storage.productId, serial: SECOND } });
  });

  it('is offered to the recipient, who sees it, while a third organization does not', async () => {
    // Act
    const asRecipient = await call('GET', '/v1/handovers?as=recipient', { key: repurposer.live });
    const asSender = await call('GET', '/v1/handovers', { key: maker.live });
    const byStranger = await call('GET', `/v1/handovers/${handover.id}`, { key: stranger.live });
    const strangersList = await call('GET', '/v1/handovers?as=recipient', { key: stranger.live });

    // Assess
    expect(handover).toMatchObject({ object: 'handover', status: 'offered', operation: 'repurposing', batteryStatus: 'Repurposed', from: { orgId: maker.orgId, serial: ORIGINAL, digitalLink: original.digitalLink }, to: { orgId: repurposer.orgId } });
    expect(asRecipient.body.data.map((h: Json) => h.id)).toContain(handover.id);
    expect(asSender.body.data.map((h: Json) => h.id)).toContain(handover.id);
    expectError(byStranger, 404, 'not_found', 'handoverId');
    expect(strangersList.body.data).toEqual([]);
  });

  it('links both batteries when accepted: the new one names its original, the original its successor, both Repurposed, each a new version', async () => {
    // Act
    const after = (await item(maker.live, ev, ORIGINAL)).body;
    const mine = (await item(repurposer.live, storage, SECOND)).body;

    // Assess
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', to: { orgId: repurposer.orgId, productId: storage.productId, serial: SECOND, digitalLink: mine.digitalLink } });
    expect(mine.lineage.predecessor).toEqual([expect.objectContaining({ digitalLink: original.digitalLink, operation: 'repurposing', handoverId: handover.id })]);
    expect(mine.data.generalProductInformation.batteryStatus).toBe('Repurposed');
    expect(mine.version).toBe(2);
    expect(after.lineage.successors).toEqual([expect.objectContaining({ digitalLink: mine.digitalLink, operation: 'repurposing', handoverId: handover.id })]);
    expect(after.data.generalProductInformation.batteryStatus).toBe('Repurposed');
    expect(after.version).toBe(original.version + 1);
    expect(after.previousDigest).toBe(original.digest);
  });

  it('shows the links on both public pages and in both JSON forms', async () => {
    // Act
    const scan = async (product: CreatedProduct, serial: string) => {
      const link = `${pathOf(product.qrCodeUrl)}/21/${serial}`;
      const redirect = await fetch(`${baseUrl()}${link}`, { redirect: 'manual', headers: { 'accept-language': 'de' } });
      await redirect.arrayBuffer();
      const page = await call('GET', pathOf(redirect.headers.get('location') ?? ''));
      const json = await call('GET', link, { headers: { accept: 'application/json' } });
      return { page, json };
    };
    const newOne = await scan(storage, SECOND);
    const old = await scan(ev, ORIGINAL);

    // Assess
    expect(newOne.page.text).toContain(`href="${accepted.body.from.digitalLink}"`);
    expect(newOne.page.text).toContain('Pass der ursprünglichen Batterie');
    expect(old.page.text).toContain(`href="${accepted.body.to.digitalLink}"`);
    expect(old.page.text).toContain('Pass dieser Batterie in ihrem zweiten Leben');
    // The public JSON names the other passports only: the operation and the handover tell the status (Annex XIII 4(c)), not public.
    expect(newOne.json.body.item.lineage).toEqual({ predecessor: [{ digitalLink: accepted.body.from.digitalLink }] });
    expect(old.json.body.item.lineage).toEqual({ successors: [{ digitalLink: accepted.body.to.digitalLink }] });
    for (const { json } of [newOne, old]) {
      expect(json.text).not.toContain(accepted.body.id);
      expect(json.text).not.toContain('repurposing');
    }
  });

  it('records the handover in both organizations’ logs, the other side’s change as the service’s, not the other key’s', async () => {
    // Act
    const makerEvents = (await call('GET', '/v1/events?type=handover.accepted', { key: maker.live })).body.data as Json[];
    const repurposerEvents = (await call('GET', '/v1/events?type=handover.accepted', { key: repurposer.live })).body.data as Json[];
    const makerItemEvents = (await call('GET', '/v1/events?type=item.updated', { key: maker.live })).body.data as Json[];

    // Assess
    expect(makerEvents.find((e) => e.data.object.id === handover.id)?.actor).toEqual({ type: 'system', id: handover.id });
    expect(repurposerEvents.find((e) => e.data.object.id === handover.id)?.actor.type).toBe('api_key');
    expect(makerItemEvents.some((e) => e.data.object.serial === ORIGINAL && e.data.object.lineage?.successors?.length === 1)).toBe(true);
  });

  it('cannot be accepted twice, nor by the sender, nor cancelled once accepted', async () => {
    // Act
    const again = await call('POST', `/v1/handovers/${handover.id}/accept`, { key: repurposer.live, body: { productId: storage.productId, serial: SECOND } });
    const bySender = await call('POST', `/v1/handovers/${handover.id}/accept`, { key: maker.live, body: { productId: ev.productId, serial: ORIGINAL } });
    const cancel = await call('DELETE', `/v1/handovers/${handover.id}`, { key: maker.live });

    // Assess
    expectError(again, 409, 'duplicate_error', 'handoverId');
    expectError(bySender, 403, 'permission_error');
    expectError(cancel, 409, 'duplicate_error', 'handoverId');
  });
});

describe('what neither side can do', () => {
  it('neither organization writes the other’s battery, and lineage is never written by PUT or PATCH', async () => {
    // Act
    const repurposerWritesOriginal = await call('PATCH', `/v1/products/${ev.productId}/items/${ORIGINAL}`, {
      key: repurposer.live,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { status: 'withdrawn' },
    });
    const makerWritesSecond = await call('PUT', `/v1/products/${storage.productId}/items/${SECOND}?force=true`, { key: maker.live, body: {} });
    const forgedLineage = await call('PATCH', `/v1/products/${storage.productId}/items/${SECOND}`, {
      key: repurposer.live,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { lineage: { predecessor: { digitalLink: 'https://id.example/01/09520123456788/21/X' } } },
    });

    // Assess
    expectError(repurposerWritesOriginal, 404, 'not_found');
    expectError(makerWritesSecond, 404, 'not_found');
    expectError(forgedLineage, 422, 'validation_error', 'lineage');
    expect((await item(maker.live, ev, ORIGINAL)).body.status).toBe('active');
  });

  it('refuses offers naming a wine, the sender itself, an unknown organization or an unknown battery, each naming the field', async () => {
    // Prepare
    const wine = await createProduct(maker.live);

    // Act
    const ofWine = await offer({ productId: wine.productId });
    const toSelf = await offer({ toOrgId: maker.orgId });
    const toNobody = await offer({ toOrgId: 'org_doesnotexist000000' });
    const unknownSerial = await offer({ serial: 'NOSUCHSERIAL' });
    const badOperation = await offer({ operation: 'recycling' });

    // Assess
    expectError(ofWine, 422, 'validation_error', 'productId');
    expectError(toSelf, 422, 'validation_error', 'toOrgId');
    expectError(toNobody, 422, 'validation_error', 'toOrgId');
    expectError(unknownSerial, 404, 'not_found', 'serial');
    expectError(badOperation, 422, 'validation_error', 'operation');
  });

  it('the recipient cannot name the sender’s battery as its own; a cancelled offer cannot be accepted, and only the sender cancels', async () => {
    // Prepare
    await register(maker.live, ev, 'EVP75H0002');
    const offered = (await offer({ serial: 'EVP75H0002', operation: 'remanufacturing' })).body;

    // Act
    const namingTheSendersBattery = await call('POST', `/v1/handovers/${offered.id}/accept`, { key: repurposer.live, body: { productId: ev.productId, serial: 'EVP75H0002' } });
    const byRecipient = await call('DELETE', `/v1/handovers/${offered.id}`, { key: repurposer.live });
    const cancelled = await call('DELETE', `/v1/handovers/${offered.id}`, { key: maker.live });
    const accept = await call('POST', `/v1/handovers/${offered.id}/accept`, { key: repurposer.live, body: { productId: storage.productId, serial: SECOND } });
    const original = await item(maker.live, ev, 'EVP75H0002');

    // Assess
    expectError(namingTheSendersBattery, 404, 'not_found', 'productId');
    expectError(byRecipient, 403, 'permission_error');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expectError(accept, 409, 'duplicate_error', 'handoverId');
    expect(original.body.version).toBe(1);
    expect(original.body.lineage).toBeUndefined();
  });
});
