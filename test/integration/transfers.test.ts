import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, expectError, getWithHost, newOrg, newSession, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { until } from '../support/until.ts';

/**
 * A change of economic operator (issue 39 point 7, docs/transfers.md): a battery product with a batch,
 * three batteries, two passport versions and their registrations in the EU registry, transferred from
 * the organization that made it to another one on the platform. Offered, declined, offered again,
 * accepted; a move stopped half-way (a battery identifier the receiver holds already) leaves both
 * organizations consistent and is finished by accepting again. Then the receiver owns the product,
 * its batch and batteries; the sender's API has none of it; the digest chain is the same chain and
 * continues with the receiver's next version; the registry's entries keep their identifiers and take
 * the receiver's operator (updated at the registry, not duplicated); the printed QR codes on the
 * sender's brand domain resolve to the receiver's passport.
 */

type Json = Record<string, any>;

const stack = inject('stack');
// LEIs of this file's own (ISO 7064 MOD 97-10 check digits), so that what the registry emulator took for each is this test's only.
const SENDER_LEI = '5299009TRANSFERSND44';
const RECEIVER_LEI = '5299009TRANSFERRCV19';
const settings = (lei: string) => ({ enabled: true, operator: { scheme: 'LEI', identifier: lei }, facilities: ['4006381000017'], commodityCode: '85076000', submission: 'api' });
const SERIALS = ['TRF0001', 'TRF0002', 'TRF0003'];
const LOT = 'TRFLOT1';

let sender: TestOrg;
let receiver: TestOrg;
let stranger: TestOrg;
let battery: CreatedProduct;
let brandHost: string;
/** What the sender read before the transfer: its versions (newest first) and its registrations by identifier. */
let versionsBefore: Json[];
let registrationsBefore: Map<string, Json>;

const productPath = () => `/v1/products/${battery.productId}`;
const offer = (key = sender.live, toOrgId = receiver.orgId) => call('POST', '/v1/transfers', { key, body: { productId: battery.productId, toOrgId } });
const accept = (id: string, key = receiver.live) => call('POST', `/v1/transfers/${id}/accept`, { key });
const registrationsOf = async (key: string): Promise<Json[]> => {
  const page = await call('GET', `/v1/registry/registrations?limit=100&productId=${battery.productId}`, { key });
  if (page.status !== 200) throw new Error(`registrations: ${page.status} ${page.text}`);
  return page.body.data as Json[];
};
/** What the registry emulator took (201) for one operator. */
const takenFor = async (reoId: string): Promise<Json[]> => {
  const response = await fetch(`${stack.registryBaseUrl}/_emulator/received?reoId=${encodeURIComponent(reoId)}`);
  if (!response.ok) throw new Error(`emulator: ${response.status}`);
  return ((await response.json()) as Json).data.filter((r: Json) => r.status === 201);
};
const eventTypes = async (key: string): Promise<string[]> =>
  ((await call('GET', '/v1/events?limit=100', { key })).body.data as Json[]).map((e) => e.type).filter((t: string) => t.startsWith('transfer.'));

beforeAll(async () => {
  [sender, receiver, stranger] = await Promise.all([newOrg('Transfer Cell Maker'), newOrg('Transfer Remarketer'), newOrg('Transfer Stranger')]);
  // The sender's QR codes are on its verified brand domain, so that its registrations pass the pre-checks.
  const session = await newSession(sender.orgId);
  const domainId = await verifiedDomainId(sender.orgId);
  const domain = await call('PATCH', `/v1/domains/${domainId}`, { session, body: { default: true } });
  if (domain.status !== 200) throw new Error(`set-up: default domain: ${domain.text}`);
  brandHost = domain.body.hostname;
  for (const [org, lei] of [[sender, SENDER_LEI], [receiver, RECEIVER_LEI]] as const) {
    const saved = await call('PUT', '/v1/registry/settings', { key: org.live, body: settings(lei) });
    if (saved.status !== 200) throw new Error(`set-up: settings: ${saved.status} ${saved.text}`);
  }
  battery = await createProduct(sender.live, { name: 'TRF traction battery', category: 'battery' });
  await publish(sender.live, battery.productId, batteryModelData('ev'));
  await publish(sender.live, battery.productId, batteryModelData('ev', { massKg: 420 }));
  const lot = await call('PUT', `${productPath()}/batches/${LOT}`, { key: sender.live, body: {} });
  if (lot.status !== 201) throw new Error(`set-up: batch: ${lot.status} ${lot.text}`);
  for (const serial of SERIALS) {
    const item = await call('PUT', `${productPath()}/items/${serial}`, { key: sender.live, body: { lot: LOT, data: batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/${serial}`, serial }) } });
    if (item.status !== 201) throw new Error(`set-up: item ${serial}: ${item.status} ${item.text}`);
  }
  // The model, the lot and the three batteries registered through the sender's outbox.
  await until(
    'the sender\'s five registrations registered',
    async () => {
      const records = await registrationsOf(sender.live);
      return records.length === 5 && records.every((r) => r.status === 'registered') ? records : undefined;
    },
    150_000,
    500,
  );
  versionsBefore = (await call('GET', `${productPath()}/passports`, { key: sender.live })).body.data;
  registrationsBefore = new Map((await registrationsOf(sender.live)).map((r) => [r.upi as string, r]));
}, 240_000);

describe('a transfer offered', () => {
  it('is seen by the receiver and not by another organization, which cannot accept it; the sender cannot accept its own', async () => {
    // Prepare
    const offered = await offer();
    // Act
    const incoming = await call('GET', '/v1/transfers?direction=incoming', { key: receiver.live });
    const outgoing = await call('GET', '/v1/transfers', { key: sender.live });
    const strangerRead = await call('GET', `/v1/transfers/${offered.body.id}`, { key: stranger.live });
    const strangerAccept = await accept(offered.body.id, stranger.live);
    const senderAccept = await accept(offered.body.id, sender.live);
    const again = await offer();
    // Assess
    expect(offered.status).toBe(201);
    expect(offered.body).toMatchObject({ object: 'transfer', status: 'offered', direction: 'outgoing', productId: battery.productId, from: { orgId: sender.orgId }, to: { orgId: receiver.orgId } });
    expect((incoming.body.data as Json[]).map((t) => [t.id, t.direction])).toEqual([[offered.body.id, 'incoming']]);
    expect((outgoing.body.data as Json[]).map((t) => t.id)).toEqual([offered.body.id]);
    expectError(strangerRead, 404, 'not_found', 'transferId');
    expectError(strangerAccept, 404, 'not_found', 'transferId');
    expectError(senderAccept, 403, 'permission_error');
    expectError(again, 409, 'conflict', 'productId');
    expect((await call('GET', productPath(), { key: sender.live })).status).toBe(200);

    // Act: the receiver declines
    const declined = await call('POST', `/v1/transfers/${offered.body.id}/decline`, { key: receiver.live });
    const acceptDeclined = await accept(offered.body.id);
    // Assess: nothing moved; the product may be offered again
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 'declined', direction: 'incoming' });
    expectError(acceptDeclined, 409, 'conflict', 'transferId');
    expect((await call('GET', productPath(), { key: sender.live })).body.tenantId).toBe(sender.orgId);
    expect((await call('GET', `${productPath()}/items`, { key: sender.live })).body.data).toHaveLength(3);
    expect((await call('GET', productPath(), { key: receiver.live })).status).toBe(404);
    expect(await registrationsOf(receiver.live)).toEqual([]);
    expect(await eventTypes(sender.live)).toEqual(['transfer.declined', 'transfer.offered']);
    expect(await eventTypes(receiver.live)).toEqual(['transfer.declined', 'transfer.offered']);
  });
});

describe('what an offer and a transfer id take', () => {
  it('refuses a toOrgId over 64 characters after org_, the sender itself, an unknown organization or product, and a transfer id or page size past its bounds', async () => {
    // Act
    const longOrg = await call('POST', '/v1/transfers', { key: sender.live, body: { productId: battery.productId, toOrgId: `org_${'a'.repeat(65)}` } });
    const maxOrg = await call('POST', '/v1/transfers', { key: sender.live, body: { productId: battery.productId, toOrgId: `org_${'a'.repeat(64)}` } });
    const self = await offer(sender.live, sender.orgId);
    const unknownProduct = await call('POST', '/v1/transfers', { key: sender.live, body: { productId: '00000000-0000-4000-8000-000000000000', toOrgId: receiver.orgId } });
    const foreignProduct = await offer(receiver.live, stranger.orgId);
    const longId = await call('GET', `/v1/transfers/tr_${'0'.repeat(21)}`, { key: sender.live });
    const bigPage = await call('GET', '/v1/transfers?limit=101', { key: sender.live });
    // Assess
    expectError(longOrg, 422, 'validation_error', 'toOrgId');
    expectError(maxOrg, 422, 'validation_error', 'toOrgId');
    expect(maxOrg.body.error.message).toContain('No organization');
    expectError(self, 422, 'validation_error', 'toOrgId');
    expectError(unknownProduct, 404, 'not_found', 'productId');
    expectError(foreignProduct, 404, 'not_found', 'productId');
    expectError(longId, 404, 'not_found', 'transferId');
    expectError(bigPage, 422, 'validation_error', 'limit');
    // Nothing was offered: the sender's one transfer is the declined one above.
    expect(((await call('GET', '/v1/transfers', { key: sender.live })).body.data as Json[]).map((t) => t.status)).toEqual(['declined']);
  });
});

describe('a transfer accepted', () => {
  let transferId: string;

  it('stops half-way when a battery identifier is the receiver\'s already, leaving both organizations consistent; accepting again after the fix finishes it', async () => {
    // Prepare: a battery of the receiver's own holds the passport identifier of the sender's third battery.
    const own = await createProduct(receiver.live, { name: 'Receiver own battery', category: 'battery' });
    const clash = await call('PUT', `/v1/products/${own.productId}/items/OWN1?force=true`, {
      key: receiver.live,
      body: { data: { generalProductInformation: { batteryPassportIdentifier: `urn:cellmaker:${SERIALS[2]!.toLowerCase()}` } } },
    });
    expect(clash.status).toBe(201);
    const offered = await offer();
    transferId = offered.body.id;

    // Act: accepted; the move stops at the third battery, and goes no further while the conflict stands
    const stopped = await accept(transferId);
    const stillStopped = await accept(transferId);
    const asReceiver = await call('GET', `/v1/transfers/${transferId}`, { key: receiver.live });
    const senderProduct = await call('GET', productPath(), { key: sender.live });
    const receiverProduct = await call('GET', productPath(), { key: receiver.live });
    const scan = await getWithHost(`/01/${battery.gtin.padStart(14, '0')}/21/${SERIALS[0]}`, brandHost);

    // Assess: the transfer is accepted and says why it stopped; the product is neither organization's through the API, and its QR codes still resolve (to the sender's passport)
    expect(stopped.status).toBe(202);
    expect(stopped.body).toMatchObject({ status: 'accepted', progress: { phase: 'copy' } });
    expect(stopped.body.progress.blocked).toContain(`urn:cellmaker:${SERIALS[2]!.toLowerCase()}`);
    expectError(stillStopped, 409, 'conflict', 'transferId');
    expect(stillStopped.body.error.message).toContain('OWN1');
    expect(asReceiver.body).toMatchObject({ status: 'accepted', progress: { phase: 'copy' } });
    expect(asReceiver.body.progress.blocked).toContain('OWN1');
    expect(senderProduct.status).toBe(404);
    expect(receiverProduct.status).toBe(404);
    expect(scan.status).toBe(307);
    expect(String(scan.headers.location)).toContain(`/${sender.orgId}/live/p/`);

    // Act: the receiver gives its own battery another identifier, and accepts again
    const fixed = await call('PATCH', `/v1/products/${own.productId}/items/OWN1`, {
      key: receiver.live,
      body: { data: { generalProductInformation: { batteryPassportIdentifier: 'urn:remarketer:own1' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const finished = await accept(transferId);

    // Assess
    expect(fixed.status).toBe(200);
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ status: 'completed', direction: 'incoming' });
    expect(finished.body.completedAt).toEqual(expect.any(String));
  }, 120_000);

  it('gives the receiver the product, its batch and batteries, and leaves the sender none of it', async () => {
    // Act
    const product = await call('GET', productPath(), { key: receiver.live });
    const items = await call('GET', `${productPath()}/items`, { key: receiver.live });
    const batches = await call('GET', `${productPath()}/batches`, { key: receiver.live });
    const item = await call('GET', `${productPath()}/items/${SERIALS[1]}`, { key: receiver.live });
    const senderProduct = await call('GET', productPath(), { key: sender.live });
    const senderItems = await call('GET', `${productPath()}/items`, { key: sender.live });
    const senderList = await call('GET', '/v1/products?limit=100', { key: sender.live });
    // Assess
    expect(product.status).toBe(200);
    expect(product.body).toMatchObject({ productId: battery.productId, tenantId: receiver.orgId, qrCodeUrl: battery.qrCodeUrl });
    expect((items.body.data as Json[]).map((i) => i.serial)).toEqual(SERIALS);
    expect((batches.body.data as Json[]).map((b) => b.lot)).toEqual([LOT]);
    expect(item.body).toMatchObject({ serial: SERIALS[1], lot: LOT, version: 1 });
    expectError(senderProduct, 404, 'not_found', 'productId');
    expectError(senderItems, 404, 'not_found', 'productId');
    expect((senderList.body.data as Json[]).map((p) => p.productId)).not.toContain(battery.productId);
  });

  it('keeps the digest chain: the same versions and links, and the receiver\'s next version chains onto the last', async () => {
    // Act
    const moved = (await call('GET', `${productPath()}/passports`, { key: receiver.live })).body.data as Json[];
    const next = await publish(receiver.live, battery.productId, batteryModelData('ev', { massKg: 410 }));
    const after = (await call('GET', `${productPath()}/passports`, { key: receiver.live })).body.data as Json[];
    // Assess: the versions the sender had, unchanged, each naming the one before
    expect(moved.map((v) => [v.version, v.digest, v.previousDigest])).toEqual(versionsBefore.map((v) => [v.version, v.digest, v.previousDigest]));
    const oldestFirst = [...after].reverse();
    expect(oldestFirst.map((v) => v.version)).toEqual([1, 2, 3]);
    oldestFirst.forEach((v, i) => expect(v.previousDigest).toBe(i === 0 ? null : oldestFirst[i - 1]!.digest));
    expect(next.version).toBe(3);
  });

  it("moves the registrations: the same identifiers with the receiver's operator, updated at the registry, not duplicated", async () => {
    // Act: the receiver's outbox sends each entry again with its operator
    const moved = await until(
      "the receiver's five registrations registered",
      async () => {
        const records = await registrationsOf(receiver.live);
        return records.length === 5 && records.every((r) => r.status === 'registered') ? records : undefined;
      },
      150_000,
      500,
    );
    const takenForReceiver = await takenFor(`LEI-${RECEIVER_LEI}`);
    // Assess: the same identifiers, the receiver's operator, the registry's own ids kept
    expect(new Set(moved.map((r) => r.upi))).toEqual(new Set(registrationsBefore.keys()));
    for (const record of moved) {
      expect(record.entry.reoId).toBe(`LEI-${RECEIVER_LEI}`);
      expect(record.registryId).toBe(registrationsBefore.get(record.upi)?.registryId);
    }
    expect(await registrationsOf(sender.live)).toEqual([]);
    const sentAgain = takenForReceiver.filter((r) => registrationsBefore.has(r.entry.upi));
    expect(new Set(sentAgain.map((r) => r.entry.upi))).toEqual(new Set(registrationsBefore.keys()));
    for (const taken of sentAgain) expect(taken.registryId).toBe(registrationsBefore.get(taken.entry.upi)?.registryId);
  }, 200_000);

  it("resolves the printed QR codes on the sender's brand domain to the receiver's passport, and old page URLs to their new place", async () => {
    // Act
    const gtin14 = battery.gtin.padStart(14, '0');
    const scan = await getWithHost(`/01/${gtin14}/21/${SERIALS[0]}`, brandHost);
    const model = await getWithHost(`/01/${gtin14}`, brandHost);
    const oldPage = await getWithHost(`/${sender.orgId}/live/p/${gtin14}/2/passport.json`, new URL(stack.url).host);
    // Assess
    expect(scan.status).toBe(307);
    expect(String(scan.headers.location)).toContain(`/${receiver.orgId}/live/p/${gtin14}/3/`);
    expect(model.status).toBe(307);
    expect(String(model.headers.location)).toContain(`/${receiver.orgId}/live/p/${gtin14}/3/`);
    expect(oldPage.status).toBe(308);
    expect(oldPage.headers.location).toBe(`/${receiver.orgId}/live/p/${gtin14}/2/passport.json`);
    const page = await call('GET', String(oldPage.headers.location));
    expect(page.status).toBe(200);
    expect(page.body.digest).toBe(versionsBefore[0]!.digest);
  });

  it('is in both organizations\' logs, offered, accepted and completed; the sender cannot take the GTIN for another product', async () => {
    // Act
    const reuse = await call('POST', '/v1/products', { key: sender.live, body: { name: 'Another', category: 'battery', gtin: battery.gtin } });
    // Assess
    expect(await eventTypes(sender.live)).toEqual(['transfer.completed', 'transfer.accepted', 'transfer.offered', 'transfer.declined', 'transfer.offered']);
    expect(await eventTypes(receiver.live)).toEqual(['transfer.completed', 'transfer.accepted', 'transfer.offered', 'transfer.declined', 'transfer.offered']);
    expectError(reuse, 409, 'duplicate_error', 'gtin');
    expect(reuse.body.error.message).toContain(receiver.orgId);
    const done = await call('GET', `/v1/transfers/${transferId}`, { key: sender.live });
    expect(done.body).toMatchObject({ status: 'completed', direction: 'outgoing' });
  });
});
