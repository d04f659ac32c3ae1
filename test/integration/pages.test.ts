import { beforeAll, describe, expect, it } from 'vitest';
import { elabelPageUrl, passportJsonUrl } from '../../lib/domain/page-urls.ts';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, RED_WINE, type CreatedProduct } from '../support/fixtures.ts';
import { sentScans } from '../support/scans.ts';

/**
 * The immutable pages of published passport versions (functions/resolver/pages.ts): what the
 * resolver's 307 points at, cached by CloudFront for a year, so each must never change.
 */
let org: TestOrg;
let product: CreatedProduct;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const gtin14 = () => `0${product.gtin}`;
const tenant = () => ({ orgId: org.orgId, environment: 'live' as const });
const page = (version: number, lang: string) => new URL(elabelPageUrl(baseUrl(), tenant(), gtin14(), version, lang)).pathname;
const json = (version: number) => new URL(passportJsonUrl(baseUrl(), tenant(), gtin14(), version)).pathname;

beforeAll(async () => {
  org = await newOrg('Pages Org');
  product = await createProduct(org.live, { name: 'Domaine des Pages 2021' });
  await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes of version one, sulphites'] }); // a wine's sulphites flag needs an ingredient that carries it
  await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes of version two', 'Preservative: sulphites'] });
});

describe('the e-label page of a version', () => {
  it('answers 200 cacheable for a year, in the language of its URL, with the e-label’s privacy headers', async () => {
    // Act
    const response = await call('GET', page(2, 'de'));
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-language')).toBe('de');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'; style-src 'sha256-[^']+'/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('vary')).toBeNull();
    expect(response.text).toContain('lang="de"');
    expect(response.text).toContain('Grapes of version two');
    expect(response.text).not.toMatch(/<script|src="https?:|href="https?:/);
  });

  it('keeps an older version readable, as it was published', async () => {
    // Act
    const first = await call('GET', page(1, 'en'));
    // Assess
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(first.text).toContain('Grapes of version one');
    expect(first.text).not.toContain('version two');
  });

  it('shows the product name as published with the version: a later rename changes no cached page', async () => {
    // Prepare
    const renamed = await createProduct(org.live, { name: 'Old Name 2020' });
    await publish(org.live, renamed.productId);
    const url = new URL(elabelPageUrl(baseUrl(), tenant(), `0${renamed.gtin}`, 1, 'en')).pathname;
    // Act
    const patched = await call('PATCH', `/v1/products/${renamed.productId}`, { key: org.live, body: { name: 'New Name 2020' } });
    const response = await call('GET', url);
    // Assess
    expect(patched.status).toBe(200);
    expect(response.text).toContain('Old Name 2020');
    expect(response.text).not.toContain('New Name 2020');
  });

  it('answers HEAD with the same headers and no body', async () => {
    // Act
    const response = await call('HEAD', page(1, 'fr'));
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(response.headers.get('content-language')).toBe('fr');
    expect(response.text).toBe('');
  });
});

describe('the JSON passport of a version', () => {
  it('answers the read form of that version, cacheable for a year, open to every origin', async () => {
    // Act
    const response = await call('GET', json(1));
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.body).toMatchObject({
      productId: product.productId,
      gtin: gtin14(),
      version: 1,
      name: 'Domaine des Pages 2021',
      qrCodeUrl: product.qrCodeUrl,
      data: { ingredients: ['Grapes of version one, sulphites'] },
    });
  });
});

describe('pages that do not exist', () => {
  it('answer 404, cacheable for a minute only: a version not yet published, a language the page is not in', async () => {
    // Act
    const future = await call('GET', page(3, 'en'));
    const language = await call('GET', page(1, 'ja')); // not one of the 24
    const futureJson = await call('GET', json(3));
    // Assess
    for (const response of [future, language]) {
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBe('public, max-age=60');
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    expectError(futureJson, 404, 'not_found');
    expect(futureJson.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('answer 404 for another tenant’s path, the other environment, a GTIN not of 14 digits or a padded version', async () => {
    // Prepare
    const other = await newOrg('Other Pages Org');
    const paths = [
      page(1, 'en').replace(org.orgId, other.orgId),
      page(1, 'en').replace('/live/', '/test/'),
      page(1, 'en').replace(`/${gtin14()}/`, `/${product.gtin}/`),
      page(1, 'en').replace('/1/en', '/01/en'),
      page(1, 'en').replace(org.orgId, 'org_unknown'),
    ];
    // Act
    const responses = await Promise.all(paths.map((p) => call('GET', p)));
    // Assess
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    for (const response of responses) expect(response.text).not.toContain('Domaine des Pages');
  });
});

describe('scans', () => {
  it('are not counted by reading a page (the resolver counted the scan that led there)', async () => {
    // Prepare
    const before = (await sentScans(product.productId)).length;
    // Act
    await call('GET', page(2, 'en'));
    await call('GET', json(2));
    // Assess
    expect(await sentScans(product.productId)).toHaveLength(before);
  });
});
