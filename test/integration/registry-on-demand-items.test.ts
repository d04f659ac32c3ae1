import { describe, expect, it } from 'vitest';
import { call, expectError, newOrg, newSession } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish } from '../support/fixtures.ts';

/**
 * Registrations on demand of named batches and items (issue 39 point 1, `{items}`;
 * docs/registry.md#registrations): only the records named, each read first, nothing written when one
 * is unknown.
 */

type Json = Record<string, any>;
const SETTINGS = { enabled: true, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '85076000', submission: 'files' };

describe('POST /v1/registry/registrations {items}', () => {
  it('registers the batch and the item named and nothing else, once, and refuses an unknown serial or a bad one before writing anything', async () => {
    // Prepare: a battery model with a lot and two batteries, made before registration was on.
    const org = await newOrg('On Demand Items');
    const session = await newSession(org.orgId);
    expect((await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } })).status).toBe(200);
    const battery = await createProduct(org.live, { name: 'On demand battery', category: 'battery' });
    await publish(org.live, battery.productId, batteryModelData('ev'));
    const lot = await call('PUT', `/v1/products/${battery.productId}/batches/OD1`, { key: org.live, body: {} });
    expect(lot.status, lot.text).toBe(201);
    for (const serial of ['ODA1', 'ODA2']) {
      const put = await call('PUT', `/v1/products/${battery.productId}/items/${serial}?force=true`, { key: org.live, body: { lot: 'OD1', data: batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/${serial}`, serial }) } });
      expect(put.status, put.text).toBe(201);
    }
    expect((await call('PUT', '/v1/registry/settings', { key: org.live, body: SETTINGS })).status).toBe(200);
    const named = [{ productId: battery.productId, serial: 'ODA1' }, { productId: battery.productId, lot: 'OD1' }];

    // Act
    const unknown = await call('POST', '/v1/registry/registrations', { key: org.live, body: { items: [{ productId: battery.productId, serial: 'ODA2' }, { productId: battery.productId, serial: 'ODNONE' }] } });
    const bad = await call('POST', '/v1/registry/registrations', { key: org.live, body: { items: [{ productId: battery.productId, serial: '..' }] } });
    const both = await call('POST', '/v1/registry/registrations', { key: org.live, body: { items: named, productIds: [battery.productId] } });
    const first = await call('POST', '/v1/registry/registrations', { key: org.live, body: { items: named } });
    const again = await call('POST', '/v1/registry/registrations', { key: org.live, body: { items: named } });

    // Assess
    expectError(unknown, 404, 'not_found', 'items[1].serial');
    expectError(bad, 422, 'validation_error', 'items[0].serial');
    expect(both.status).toBe(422);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ created: 2, existing: 0, hasMore: false });
    expect(again.body).toMatchObject({ created: 0, existing: 2 });
    const listed = (await call('GET', `/v1/registry/registrations?productId=${battery.productId}`, { key: org.live })).body.data as Json[];
    expect(listed.map((r) => [r.granularity, r.lot, r.serial]).sort()).toEqual([
      ['BATCH', 'OD1', null],
      ['ITEM', 'OD1', 'ODA1'],
    ]);
  });
});
