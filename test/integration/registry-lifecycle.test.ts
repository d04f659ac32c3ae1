import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { call, newSession, newOrg, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { registryEntryErrors } from '../support/registry-schema.ts';
import { until } from '../support/until.ts';

/**
 * An item's life at the EU registry (issue 39 point 5; docs/registry.md#lifecycle): an organization
 * whose registrations go out through the API registers a battery through the outbox; withdrawn, its
 * entry is deactivated at the registry (`deactivated: true`) and its registration is `deactivated`;
 * reinstated, it is reactivated (`deactivated: false`) and `registered` again. Every entry the
 * registry emulator took is valid against the CIRPASS-2 mock's schema.
 */

type Json = Record<string, any>;

const stack = inject('stack');
// An LEI of its own (ISO 7064 MOD 97-10 check digits 93), so that what the emulator took for it is this test's only.
const LEI = '5299009LIFECYCLE0093';
const REO_ID = `LEI-${LEI}`;
const SETTINGS = { enabled: true, operator: { scheme: 'LEI', identifier: LEI }, facilities: ['4006381000017'], commodityCode: '85076000', submission: 'api' };
const SERIAL = 'LIFE0001';

let org: TestOrg;
let battery: CreatedProduct;

const itemUpi = () => `${battery.qrCodeUrl}/21/${SERIAL}`;
/** What the emulator took (201) for this operator's item, in the order it took it. */
async function takenForItem(): Promise<Json[]> {
  const response = await fetch(`${stack.registryBaseUrl}/_emulator/received?reoId=${encodeURIComponent(REO_ID)}`);
  if (!response.ok) throw new Error(`emulator: ${response.status}`);
  return ((await response.json()) as Json).data.filter((r: Json) => r.status === 201 && r.entry.upi === itemUpi());
}

async function itemRegistration(): Promise<Json | undefined> {
  const page = await call('GET', `/v1/registry/registrations?limit=100&granularity=ITEM&productId=${battery.productId}`, { key: org.live });
  if (page.status !== 200) throw new Error(`list registrations: ${page.status} ${page.text}`);
  return (page.body.data as Json[]).find((r) => r.upi === itemUpi());
}

const withStatus = (status: string) => async () => {
  const registration = await itemRegistration();
  return registration?.status === status ? registration : undefined;
};

const patchItem = async (status: string): Promise<void> => {
  const patched = await call('PATCH', `/v1/products/${battery.productId}/items/${SERIAL}`, { key: org.live, body: { status }, headers: { 'content-type': 'application/merge-patch+json' } });
  if (patched.status !== 200) throw new Error(`patch item ${status}: ${patched.status} ${patched.text}`);
};

beforeAll(async () => {
  org = await newOrg('Registry Lifecycle Maker');
  const session = await newSession(org.orgId);
  const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } });
  if (domain.status !== 200) throw new Error(`set-up: default domain: ${domain.text}`);
  const enabled = await call('PUT', '/v1/registry/settings', { key: org.live, body: SETTINGS });
  if (enabled.status !== 200 || enabled.body.submission !== 'api') throw new Error(`set-up: settings: ${enabled.status} ${enabled.text}`);
  battery = await createProduct(org.live, { name: 'Lifecycle traction battery', category: 'battery' });
  await publish(org.live, battery.productId, batteryModelData('ev'));
  const item = await call('PUT', `/v1/products/${battery.productId}/items/${SERIAL}`, { key: org.live, body: { data: batteryItemData({ digitalLink: itemUpi(), serial: SERIAL }) } });
  if (item.status !== 201) throw new Error(`set-up: item: ${item.status} ${item.text}`);
  await until('the item registered through the outbox', withStatus('registered'), 120_000, 500);
}, 180_000);

describe('an item\'s registry entry follows its life (issue 39 point 5)', () => {
  it('deactivates the entry when the item is withdrawn, and reactivates it when it is reinstated', async () => {
    // Act: withdrawn
    await patchItem('withdrawn');
    const deactivated = await until('the registration deactivated', withStatus('deactivated'), 90_000, 500);
    const afterWithdrawal = await takenForItem();

    // Act: reinstated
    await patchItem('active');
    const reactivated = await until('the registration registered again', withStatus('registered'), 90_000, 500);
    const afterReinstatement = await takenForItem();

    // Assess
    expect(deactivated.entry.deactivated).toBe(true);
    expect(afterWithdrawal.map((r) => r.entry.deactivated)).toEqual([false, true]);
    expect(reactivated.entry.deactivated).toBe(false);
    expect(reactivated.id).toBe(deactivated.id);
    expect(afterReinstatement.map((r) => r.entry.deactivated)).toEqual([false, true, false]);
    expect(afterReinstatement.flatMap((r) => registryEntryErrors(r.entry))).toEqual([]);
  }, 200_000);
});
