import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Suppliers Org');
});

describe('POST /v1/suppliers', () => {
  it('creates a supplier, defaulting role to producer and normalizing the VAT number', async () => {
    const response = await call('POST', '/v1/suppliers', {
      key: org.live,
      body: { name: 'Château Exemple', country: 'FR', vatNumber: 'fr 40 303 265 045' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      supplierId: expect.stringMatching(/^sup_[0-9a-z]{20}$/),
      name: 'Château Exemple',
      role: 'producer',
      country: 'FR',
      vatNumber: 'FR40303265045',
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(response.headers.get('location')).toBe(`/v1/suppliers/${response.body.supplierId}`);
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'X', country: 'fr' }, 'country'],
    [{ name: 'X', country: 'FRA' }, 'country'],
    [{ name: 'X', role: 'farmer' }, 'role'],
    [{ name: 'X', vatNumber: '123' }, 'vatNumber'],
    [{ name: 'X', vatNumber: 12345 }, 'vatNumber'],
    [{ name: 'X', email: 'a@b.c' }, 'email'],
  ])('answers 422 for %j with param %s, and stores nothing', async (body, param) => {
    const fresh = await newOrg();
    expectError(await call('POST', '/v1/suppliers', { key: fresh.live, body }), 422, 'validation_error', param);
    expect((await call('GET', '/v1/suppliers', { key: fresh.live })).body.data).toEqual([]);
  });

  it('answers 400 for malformed JSON, 401 without a key, 403 without suppliers:write', async () => {
    expectError(await call('POST', '/v1/suppliers', { key: org.live, rawBody: '{', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request_error');
    expectError(await call('POST', '/v1/suppliers', { body: { name: 'X' } }), 401, 'authentication_error');
    expectError(await call('POST', '/v1/suppliers', { key: await org.keyWith(['suppliers:read']), body: { name: 'X' } }), 403, 'permission_error');
  });
});

describe('GET /v1/suppliers and /v1/suppliers/{id}', () => {
  it('lists oldest first in the cursor form and reads one', async () => {
    const fresh = await newOrg();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call('POST', '/v1/suppliers', { key: fresh.live, body: { name: `S${i}`, role: 'bottler' } })).body.supplierId);
    const first = await call('GET', '/v1/suppliers?limit=3', { key: fresh.live });
    expect(first.body.data.map((s: { supplierId: string }) => s.supplierId)).toEqual(ids.slice(0, 3));
    expect(first.body.hasMore).toBe(true);
    const rest = await call('GET', `/v1/suppliers?starting_after=${ids[2]}`, { key: fresh.live });
    expect(rest.body).toEqual({ data: expect.any(Array), hasMore: false });
    expect(rest.body.data.map((s: { supplierId: string }) => s.supplierId)).toEqual(ids.slice(3));
    const one = await call('GET', `/v1/suppliers/${ids[0]}`, { key: fresh.live });
    expect(one.body).toMatchObject({ supplierId: ids[0], name: 'S0', role: 'bottler', country: null, vatNumber: null });
  });

  it('answers 404 for an unknown id and for another tenant’s supplier; never lists foreign suppliers', async () => {
    const created = await call('POST', '/v1/suppliers', { key: org.live, body: { name: 'Mine' } });
    const other = await newOrg();
    expectError(await call('GET', `/v1/suppliers/${created.body.supplierId}`, { key: other.live }), 404, 'not_found');
    expectError(await call('GET', `/v1/suppliers/${created.body.supplierId}`, { key: org.test }), 404, 'not_found');
    expectError(await call('GET', '/v1/suppliers/sup_nope', { key: org.live }), 404, 'not_found');
    expect((await call('GET', '/v1/suppliers', { key: other.live })).body.data).toEqual([]);
  });

  it('answers 401 and 403 on reads, and 422 for a bad limit', async () => {
    expectError(await call('GET', '/v1/suppliers'), 401, 'authentication_error');
    expectError(await call('GET', '/v1/suppliers', { key: await org.keyWith(['suppliers:write']) }), 403, 'permission_error');
    expectError(await call('GET', '/v1/suppliers?limit=101', { key: org.live }), 422, 'validation_error', 'limit');
  });
});
