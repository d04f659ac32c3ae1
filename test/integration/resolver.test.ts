import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseUrl, call, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, RED_WINE, type CreatedProduct } from '../support/fixtures.ts';
import { sentScans } from '../support/scans.ts';

let org: TestOrg;
let product: CreatedProduct;
const path = () => new URL(product.qrCodeUrl).pathname;
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => fetch(`${baseUrl()}${p}`, { method, headers });

/** The shape GS1's linkset JSON schema requires (Digital Link / Resolver 1.2), as a zod schema. */
const gs1Link = z.object({
  href: z.url(),
  title: z.string().min(1),
  type: z.string().optional(),
  hreflang: z.array(z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/)).optional(),
});
const gs1Linkset = z.object({
  linkset: z
    .array(
      z
        .object({ anchor: z.url(), itemDescription: z.string().optional() })
        .catchall(z.array(gs1Link).min(1))
        .refine((ctx) => Object.keys(ctx).filter((k) => k !== 'anchor' && k !== 'itemDescription').every((k) => /^https:\/\/gs1\.org\/voc\/\w+$/.test(k)), {
          message: 'link relation types must be GS1 vocabulary URIs',
        }),
    )
    .min(1),
});

beforeAll(async () => {
  org = await newOrg('Resolver Org');
  product = await createProduct(org.live, { name: 'Château Résolu 2022' });
  await publish(org.live, product.productId);
});

describe('the public resolver', () => {
  it('serves the e-label page to a browser, without authentication, cookies or third-party resources', async () => {
    const response = await get(path(), { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Accept, Accept-Language');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('Château Résolu 2022');
    expect(html).toContain('Grapes');
    expect(html).not.toMatch(/<script|src="https?:|href="https?:\/\/(?!localhost)/);
  });

  it('answers in German or French when the browser prefers it', async () => {
    const de = await get(path(), { accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(de.headers.get('content-language')).toBe('de');
    expect(await de.text()).toContain('lang="de"');
    const fr = await get(path(), { accept: 'text/html', 'accept-language': 'fr-CH' });
    expect(await fr.text()).toContain('lang="fr"');
  });

  it('serves the passport read form as JSON', async () => {
    const response = await get(path(), { accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      productId: product.productId,
      name: 'Château Résolu 2022',
      gtin: `0${product.gtin}`,
      data: RED_WINE,
      qrCodeUrl: product.qrCodeUrl,
      status: 'published',
      version: 1,
    });
  });

  it('serves an RFC 9264 linkset that validates against GS1’s linkset schema, by Accept or ?linkType=linkset', async () => {
    for (const [p, headers] of [
      [path(), { accept: 'application/linkset+json' }],
      [`${path()}?linkType=linkset`, {}],
    ] as const) {
      const response = await get(p, headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/linkset+json');
      expect(response.headers.get('link')).toContain('rel="http://www.w3.org/ns/json-ld#context"');
      const body = gs1Linkset.parse(await response.json());
      expect(body.linkset[0]?.anchor).toBe(product.qrCodeUrl);
      expect(body.linkset[0]?.['https://gs1.org/voc/defaultLink']).toBeDefined();
    }
  });

  it('answers HEAD with the headers and no body, and OPTIONS with CORS', async () => {
    const head = await get(path(), { accept: 'text/html' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
    const options = await get(path(), { origin: 'https://shop.example', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    expect(options.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    const get200 = await get(path(), { accept: 'application/json', origin: 'https://shop.example' });
    expect(get200.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('resolves qualifiers after the GTIN to the GTIN-level passport', async () => {
    for (const suffix of ['/10/LOT-42', '/21/SN%2F0001', '/22/A1/10/B2/21/C3']) {
      const response = await get(`${path()}${suffix}`, { accept: 'application/json' });
      expect(response.status, suffix).toBe(200);
      expect(((await response.json()) as { productId: string }).productId).toBe(product.productId);
    }
  });

  it('answers 400 for an invalid Digital Link and a bad check digit (a page for browsers)', async () => {
    const base = path().replace(/01\/\d+$/, '01/');
    for (const bad of [
      `${base}${product.gtin.slice(0, -1)}${(Number(product.gtin.at(-1)) + 1) % 10}`,
      `${base}12345`,
      `${path()}/10`,
      `${path()}/99/X`,
      `${path()}/21/A/10/B`,
      `${path()}/10/${'L'.repeat(21)}`,
    ]) {
      const response = await get(bad, { accept: 'application/json' });
      expect(response.status, bad).toBe(400);
      expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    }
    const page = await get(`${base}12345`, { accept: 'text/html' });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('answers 404 for an unknown GTIN, an unpublished product, and another tenant’s path (a friendly page for browsers)', async () => {
    const unpublished = await createProduct(org.live);
    const foreign = path().replace(org.orgId, (await newOrg()).orgId);
    for (const p of [path().replace(/\d{14}$/, '09506000134352'), new URL(unpublished.qrCodeUrl).pathname, foreign, path().replace('/live/', '/test/')]) {
      const json = await get(p, { accept: 'application/json' });
      expect(json.status, p).toBe(404);
      expect(((await json.json()) as { error: { type: string } }).error.type).toBe('not_found');
    }
    const page = await get(foreign, { accept: 'text/html' });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('<html');
  });

  it('always serves the newest version: a new passport shows at the same URL at once', async () => {
    const fresh = await createProduct(org.live);
    await publish(org.live, fresh.productId, { ...RED_WINE, vintage: 2019 });
    await publish(org.live, fresh.productId, { ...RED_WINE, vintage: 2020, ingredients: ['Grapes', 'Sulphites', 'Oak chips'] });
    const body = await (await fetch(fresh.qrCodeUrl, { headers: { accept: 'application/json' } })).json();
    expect(body).toMatchObject({ version: 2, data: { vintage: 2020 } });
    expect(await (await fetch(fresh.qrCodeUrl, { headers: { accept: 'text/html' } })).text()).toContain('Oak chips');
  });

  it('describes itself at /.well-known/gs1resolver', async () => {
    const response = await get('/.well-known/gs1resolver');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ supportedPrimaryKeys: ['gtin'], resolverRoot: baseUrl() });
  });
});

describe('scan events', () => {
  it('puts one message per GET on the scan queue with aggregate fields only, none for HEAD or OPTIONS', async () => {
    // Prepare
    const scanned = await createProduct(org.live);
    await publish(org.live, scanned.productId);
    const p = new URL(scanned.qrCodeUrl).pathname;
    // Act
    await get(p, {
      accept: 'text/html',
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      referer: 'https://www.instagram.com/p/abc?utm=1&email=a@b.c',
      'cloudfront-viewer-country': 'DE',
      cookie: 'session=secret',
    });
    await get(p, { accept: 'application/json', 'user-agent': 'curl/8.5.0' });
    await get(p, {}, 'HEAD');
    await get(p, {}, 'OPTIONS');
    await get(`${p}/10/LOT1`, { accept: 'application/json', 'cloudfront-viewer-country': 'zz' });
    // Assess
    const events = await sentScans(scanned.productId);
    expect(events).toHaveLength(3);
    expect(events[0]).toEqual({
      v: 1,
      orgId: org.orgId,
      environment: 'live',
      productId: scanned.productId,
      gtin: `0${scanned.gtin}`,
      at: expect.stringMatching(/Z$/),
      country: 'DE',
      referrer: 'instagram.com',
      device: 'mobile',
    });
    expect(events[1]).toMatchObject({ country: 'unknown', referrer: 'direct', device: 'bot' });
    expect(events[2]).toMatchObject({ country: 'unknown' });
    const serialized = JSON.stringify(events);
    expect(serialized).not.toMatch(/127\.0\.0\.1|iPhone|Mozilla|secret|utm|a@b\.c/);
  });

  it('sends nothing for an unknown GTIN or an invalid link', async () => {
    const before = (await call('GET', '/_local/scan-events')).body.data.length;
    await get(path().replace(/\d{14}$/, '09506000134352'));
    await get(`${path()}/99/X`);
    expect((await call('GET', '/_local/scan-events')).body.data.length).toBe(before);
  });
});
