import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { baseUrl, call, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, RED_WINE, TOMATO_PASSATA, type CreatedProduct } from '../support/fixtures.ts';
import { descriptionErrors, linksetErrors } from '../support/gs1-schemas.ts';
import { ALTERNATE } from '../../functions/resolver/linkset.ts';
import { sentScans } from '../support/scans.ts';

let org: TestOrg;
let product: CreatedProduct;
const path = () => new URL(product.qrCodeUrl).pathname;
/** One request to the resolver, as a client that does not follow redirects sees it. */
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => fetch(`${baseUrl()}${p}`, { method, headers, redirect: 'manual' });
/** The target of a 307, fetched with the same headers (what a browser does next). */
const follow = (response: Response, headers: Record<string, string> = {}) => fetch(response.headers.get('location') ?? 'about:invalid', { headers });
const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';
/** The immutable page URL of a version of the test product (lib/domain/page-urls.ts). */
const pageUrl = (version: number, page: string) => `${baseUrl()}/${org.orgId}/live/p/0${product.gtin}/${version}/${page}`;

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
        // GS1's link types, and the backup copy under the IANA relation `alternate` as a URI (docs/backup.md#the-backup-url).
        .refine((ctx) => Object.keys(ctx).filter((k) => k !== 'anchor' && k !== 'itemDescription').every((k) => /^https:\/\/gs1\.org\/voc\/\w+$/.test(k) || k === ALTERNATE), {
          message: 'link relation types must be GS1 vocabulary URIs (or the IANA alternate relation)',
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
  it('redirects a browser (307, not cacheable) to the current version’s e-label page, served without authentication, cookies or third-party resources', async () => {
    const redirect = await get(path(), { accept: BROWSER });
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toBe(pageUrl(1, 'en'));
    expect(redirect.headers.get('link')).toBe(`<${product.qrCodeUrl}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`);
    expect(redirect.headers.get('vary')).toBe('Accept, Accept-Language');
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    expect(redirect.headers.get('set-cookie')).toBeNull();
    const response = await follow(redirect, { accept: BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('Château Résolu 2022');
    expect(html).toContain('Grapes');
    expect(html).not.toMatch(/<script|src="https?:|href="https?:\/\/(?!localhost)/);
  });

  it('answers in German or French when the browser prefers it', async () => {
    const deRedirect = await get(path(), { accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(deRedirect.headers.get('location')).toBe(pageUrl(1, 'de'));
    const de = await follow(deRedirect);
    expect(de.headers.get('content-language')).toBe('de');
    expect(await de.text()).toContain('lang="de"');
    const frRedirect = await get(path(), { accept: 'text/html', 'accept-language': 'fr-CH' });
    expect(frRedirect.headers.get('location')).toBe(pageUrl(1, 'fr'));
    expect(await (await follow(frRedirect)).text()).toContain('lang="fr"');
    const none = await get(path(), { 'accept-language': 'ja' });
    expect(none.headers.get('location')).toBe(pageUrl(1, 'en'));
  });

  it('redirects Accept: application/json to the version’s JSON passport, which a client following redirects reads as before', async () => {
    const redirect = await get(path(), { accept: 'application/json' });
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toBe(pageUrl(1, 'passport.json'));
    const response = await fetch(product.qrCodeUrl, { headers: { accept: 'application/json' } });
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

  it('serves an RFC 9264 linkset that validates against the GS1 linkset schema, by Accept, ?linkType=linkset or ?linkType=all', async () => {
    for (const [p, headers] of [
      [path(), { accept: 'application/linkset+json' }],
      [`${path()}?linkType=linkset`, {}],
      [`${path()}?linkType=all`, { accept: BROWSER }],
    ] as const) {
      const response = await get(p, headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/linkset+json');
      expect(response.headers.get('link')).toContain('rel="http://www.w3.org/ns/json-ld#context"');
      const json = await response.json();
      expect(linksetErrors(json)).toEqual([]);
      const body = gs1Linkset.parse(json);
      expect(body.linkset[0]?.anchor).toBe(product.qrCodeUrl);
      expect(body.linkset[0]?.itemDescription).toBe('Château Résolu 2022');
      expect(body.linkset[0]?.['https://gs1.org/voc/defaultLink']).toEqual([expect.objectContaining({ href: pageUrl(1, 'en') })]);
      const pip = body.linkset[0]?.['https://gs1.org/voc/pip'] as Array<{ href: string; type?: string; hreflang?: string[] }>;
      expect(pip.filter((link) => link.type === 'text/html').map((link) => link.hreflang)).toEqual(LANGUAGES.map((lang) => [lang]));
      expect(pip.find((link) => link.type === 'application/json')?.href).toBe(pageUrl(1, 'passport.json'));
    }
  });

  it('answers ?linkType= (CURIE or full URI) with 307 to that type’s best link, passing the rest of the query string on; 404 for a type it has no link of', async () => {
    const curie = await get(`${path()}?linkType=gs1:pip&utm_source=label`, { accept: BROWSER, 'accept-language': 'fr' });
    expect(curie.status).toBe(307);
    expect(curie.headers.get('location')).toBe(`${pageUrl(1, 'fr')}?utm_source=label`);
    const uri = await get(`${path()}?linkType=${encodeURIComponent('https://gs1.org/voc/pip')}`, { accept: 'application/json' });
    expect(uri.status).toBe(307);
    expect(uri.headers.get('location')).toBe(pageUrl(1, 'passport.json'));
    const missing = await get(`${path()}?linkType=gs1:recallStatus`, { accept: 'application/json' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { type: string; param?: string } }).error).toMatchObject({ type: 'not_found', param: 'linkType' });
    const missingPage = await get(`${path()}?linkType=gs1:recallStatus`, { accept: BROWSER });
    expect(missingPage.status).toBe(404);
    expect(missingPage.headers.get('content-type')).toContain('text/html');
  });

  it('answers HEAD with the headers and no body, and OPTIONS with CORS', async () => {
    const head = await get(path(), { accept: 'text/html' }, 'HEAD');
    expect(head.status).toBe(307);
    expect(head.headers.get('location')).toBe(pageUrl(1, 'en'));
    expect(await head.text()).toBe('');
    const slash = await get(`${path()}/`, { accept: 'text/html' });
    expect([slash.status, slash.headers.get('location')]).toEqual([307, pageUrl(1, 'en')]);
    const options = await get(path(), { origin: 'https://shop.example', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    expect(options.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    const redirect = await get(path(), { accept: 'application/json', origin: 'https://shop.example' });
    expect(redirect.headers.get('access-control-allow-origin')).toBe('*');
    expect(redirect.headers.get('access-control-expose-headers')).toContain('Location');
  });

  it('resolves qualifiers after the GTIN to the GTIN-level passport', async () => {
    for (const suffix of ['/10/LOT-42', '/21/SN%2F0001', '/22/A1/10/B2/21/C3']) {
      const redirect = await get(`${path()}${suffix}`, { accept: 'application/json' });
      expect(redirect.status, suffix).toBe(307);
      expect(redirect.headers.get('link'), suffix).toContain(`<${product.qrCodeUrl}${suffix}?linkType=linkset>`);
      const response = await follow(redirect, { accept: 'application/json' });
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
    const redirect = await fetch(fresh.qrCodeUrl, { headers: { accept: 'application/json' }, redirect: 'manual' });
    expect(redirect.headers.get('location')).toMatch(/\/p\/\d{14}\/2\/passport\.json$/);
    const body = await (await fetch(fresh.qrCodeUrl, { headers: { accept: 'application/json' } })).json();
    expect(body).toMatchObject({ version: 2, data: { vintage: 2020 } });
    expect(await (await fetch(fresh.qrCodeUrl, { headers: { accept: 'text/html' } })).text()).toContain('Oak chips');
  });

  it('describes itself at /.well-known/gs1resolver', async () => {
    const response = await get('/.well-known/gs1resolver');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(descriptionErrors(body)).toEqual([]);
    expect(body).toMatchObject({ supportedPrimaryKeys: ['01'], resolverRoot: baseUrl() });
  });
});

describe('scan events', () => {
  it('puts one message per GET on the scan queue with aggregate fields only, none for HEAD or OPTIONS or for following the redirect', async () => {
    // Prepare: a food product (a wine's scans are counts only: scan-privacy.test.ts)
    const scanned = await createProduct(org.live, { category: 'food' });
    await publish(org.live, scanned.productId, TOMATO_PASSATA);
    const p = new URL(scanned.qrCodeUrl).pathname;
    // Act
    await get(p, {
      accept: 'text/html',
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      referer: 'https://www.instagram.com/p/abc?utm=1&email=a@b.c',
      'cloudfront-viewer-country': 'DE',
      cookie: 'session=secret',
    });
    await fetch(`${baseUrl()}${p}`, { headers: { accept: 'application/json', 'user-agent': 'curl/8.5.0' } }); // follows the 307
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
    // Prepare: this organization's events only (other files scan the shared stack at the same time)
    const ours = async () => ((await call('GET', '/_local/scan-events')).body.data as Array<{ orgId: string }>).filter((event) => event.orgId === org.orgId).length;
    const before = await ours();
    // Act
    await get(path().replace(/\d{14}$/, '09506000134352'));
    await get(`${path()}/99/X`);
    // Assess
    expect(await ours()).toBe(before);
  });
});
