import { describe, expect, it } from 'vitest';
import { call, newOrg } from '../support/api.ts';

describe('the sandbox', () => {
  it('gives a new organization’s test environment realistic data, and leaves live empty', async () => {
    // Prepare
    const org = await newOrg('Sandbox Org', { sandbox: true });
    // Act
    const products = await call('GET', '/v1/products', { key: org.test });
    const suppliers = await call('GET', '/v1/suppliers', { key: org.test });
    // Assess
    expect(products.body.data.map((p: { category: string }) => p.category).sort()).toEqual(['food', 'textile', 'wine']);
    expect(suppliers.body.data).toHaveLength(2);
    const wine = products.body.data.find((p: { category: string }) => p.category === 'wine');
    const passport = await call('GET', `/v1/products/${wine.productId}/passport`, { key: org.test });
    expect(passport.body).toMatchObject({ version: 2, data: { colour: 'red', allergens: { containsSulphites: true } } });
    const history = await call('GET', `/v1/products/${wine.productId}/passports`, { key: org.test });
    expect(history.body.data.map((p: { version: number }) => p.version)).toEqual([2, 1]);
    const page = await fetch(wine.qrCodeUrl, { headers: { accept: 'text/html', 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    // The sample wine names its ingredients by vocabulary code: Table 2's categories, the Annex I Part A term in bold, the fining agent after the additives.
    expect(passport.body.data.ingredients).toEqual([{ code: 'grapes' }, { code: 'tartaric-acid' }, { code: 'sulphur-dioxide' }, { code: 'egg-albumin' }]);
    expect(await page.text()).toContain('grapes, acidity regulators: tartaric acid; preservatives and antioxidants: <strong>sulphur dioxide</strong>; <strong>egg albumin</strong>');

    expect((await call('GET', '/v1/products', { key: org.live })).body.pagination.total).toBe(0);
    expect((await call('GET', '/v1/suppliers', { key: org.live })).body.data).toEqual([]);
  });
});
