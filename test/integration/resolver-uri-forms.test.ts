import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { markVerified } from '../../lib/data/domains.ts';
import { createDomain } from '../../lib/services/domains.ts';
import { SERVICE_ORIGIN } from '../../lib/services/service-origin.ts';
import { baseUrl, newOrg, type TestOrg } from '../support/api.ts';
import { checkContract } from '../support/contract.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { sentScans } from '../support/scans.ts';

/**
 * The forms of a Digital Link the resolver accepts besides the printed one (docs/resolver.md):
 * the query string passed on as received, a 13-digit GTIN answered with the canonical 14-digit URI,
 * and compressed links (GS1 Digital Link compression) answered as the URI they decompress to.
 */
let org: TestOrg;
let product: CreatedProduct;
/** The products of GS1's compression vectors, by GTIN-14. */
const vectors: Record<string, CreatedProduct> = {};
const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';

/** One request as a client that does not follow redirects sees it, held to the OpenAPI document. */
async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${baseUrl()}${path}`, { method, headers, redirect: 'manual' });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const body = contentType.includes('json') && text ? (JSON.parse(text) as unknown) : text;
  checkContract(method, `${baseUrl()}${path}`, response.status, contentType, body);
  return { status: response.status, headers: response.headers, body: body as any, text };
}

const tenantPath = () => `/${org.orgId}/live`;
const pageOf = (gtin14: string, page: string) => `${baseUrl()}${tenantPath()}/p/${gtin14}/1/${page}`;

/**
 * A link of one primary key compressed as GS1 compression writes it alone: the AI's two digits as
 * nibbles, then the number in its fixed bit count (a GTIN-14 in 47 bits, an SSCC in 60), zero
 * bits padding the last base64url character. For GTINs of no published vector.
 */
function compressedKey(ai: '00' | '01', value: string): string {
  const valueBits = ai === '01' ? 47 : 60;
  const bits = `${ai.split('').map((d) => Number(d).toString(2).padStart(4, '0')).join('')}${BigInt(value).toString(2).padStart(valueBits, '0')}`;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return bits.padEnd(Math.ceil(bits.length / 6) * 6, '0').replace(/[01]{6}/g, (sextet) => alphabet[parseInt(sextet, 2)] ?? '');
}
const compressedGtin = (gtin14: string) => compressedKey('01', gtin14);

beforeAll(async () => {
  org = await newOrg('Resolver URI Forms Org');
  product = await createProduct(org.live, { name: 'Forme Canonique 2021' });
  await publish(org.live, product.productId);
  for (const gtin13 of ['5392000229648', '5412345000013', '4006381333931']) {
    const created = await createProduct(org.live, { name: `GS1 vector ${gtin13}`, gtin: gtin13 });
    await publish(org.live, created.productId);
    vectors[`0${gtin13}`] = created;
  }
});

describe('the query string is passed on as received (item 13)', () => {
  it('keeps percent-encodings, plus signs and the order of the pairs, and drops only linkType', async () => {
    // Act
    const response = await get(`${new URL(product.qrCodeUrl).pathname}?x=1%202&linkType=gs1%3Apip&y=a+b&z=%E2%82%AC&w`, { accept: BROWSER });
    // Assess
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(`${pageOf(`0${product.gtin}`, 'en')}?x=1%202&y=a+b&z=%E2%82%AC&w`);
  });

  it('encodes only what a URI cannot hold as it is: a % that starts no percent-encoding', async () => {
    // Act
    const response = await get(`${new URL(product.qrCodeUrl).pathname}?v=100%&x=1%202`, { accept: BROWSER });
    // Assess
    expect(response.headers.get('location')).toBe(`${pageOf(`0${product.gtin}`, 'en')}?v=100%25&x=1%202`);
  });

  it('passes nothing on when linkType was the whole query string', async () => {
    // Act
    const response = await get(`${new URL(product.qrCodeUrl).pathname}?linkType=gs1:pip`, { accept: BROWSER });
    // Assess
    expect(response.headers.get('location')).toBe(pageOf(`0${product.gtin}`, 'en'));
  });
});

describe('a 13-digit GTIN is answered with the canonical 14-digit URI (item 14)', () => {
  it('resolves at once (307) and names the canonical URI in Link: the linkset link and rel="canonical"', async () => {
    // Act
    const response = await get(`${tenantPath()}/01/${product.gtin}`, { accept: BROWSER });
    // Assess
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(pageOf(`0${product.gtin}`, 'en'));
    expect(response.headers.get('link')).toBe(
      `<${product.qrCodeUrl}?linkType=linkset>; rel="linkset"; type="application/linkset+json", <${product.qrCodeUrl}>; rel="canonical"`,
    );
  });

  it('anchors the linkset at the 14-digit URI, with its qualifiers in GS1’s encoding', async () => {
    // Act
    const response = await get(`${tenantPath()}/01/${product.gtin}/10/L(1)?linkType=linkset`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.linkset[0].anchor).toBe(`${product.qrCodeUrl}/10/L%281%29`);
    expect(response.headers.get('link')).toContain(`<${product.qrCodeUrl}/10/L%281%29>; rel="canonical"`);
  });

  it('names no other canonical URI for the canonical one', async () => {
    // Act
    const response = await get(new URL(product.qrCodeUrl).pathname, { accept: 'application/json' });
    // Assess
    expect(response.status).toBe(307);
    expect(response.headers.get('link')).not.toContain('rel="canonical"');
  });
});

describe('compressed Digital Links are answered as the URI they decompress to (item 15)', () => {
  // Source: GS1, GS1_DigitalLink_Resolver_CE discussion #95: https://example.com/01/05392000229648/10/LOT01/21/SERIAL01 compressed.
  const RESOLVER_CE = 'AQnO2IRCICDKWcnpqQtCQiJABemo';
  // Source: GS1, GS1DigitalLinkCompressionPrototype, src-decompression-only/demo-minimal3.html: GTIN 05412345000013, lot ABC&+123,
  // AI 7003 1903061658, and two keys that are no AI (expdt, k1), all compressed.
  const PROTOTYPE_WITH_KEYS = 'AQnYUc1gmiERBhQ0ytiyZuAGOLc1TXhXsaXbQKHFuaprwUmrBX6g';
  // Source: issue 32 of this project: GTIN 04006381333931 compressed.
  const ISSUE_32 = 'AQdJnd9bVg';

  it('redirects a browser to the e-label at once (no redirect to the uncompressed URI), naming the uncompressed URI first (owl:sameAs); one scan is counted', async () => {
    // Act
    const response = await get(`${tenantPath()}/${RESOLVER_CE}`, { accept: BROWSER });
    // Assess
    const uncompressed = `${baseUrl()}${tenantPath()}/01/05392000229648/10/LOT01/21/SERIAL01`;
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(pageOf('05392000229648', 'en'));
    expect(response.headers.get('link')).toBe(
      `<${uncompressed}>; rel="owl:sameAs", <${uncompressed}?linkType=linkset>; rel="linkset"; type="application/linkset+json", <${uncompressed}>; rel="canonical"`,
    );
    expect(await sentScans(vectors['05392000229648']!.productId)).toHaveLength(1);
  });

  it('answers as the uncompressed URI does, as GS1’s resolver test suite compares them: same status and Location, the uncompressed URI’s first Link with rel owl:sameAs', async () => {
    // Prepare
    const uncompressedPath = `${tenantPath()}/01/05392000229648/10/LOT01/21/SERIAL01`;
    // Act
    const compressed = await get(`${tenantPath()}/${RESOLVER_CE}`, { accept: 'application/json' });
    const uncompressed = await get(uncompressedPath, { accept: 'application/json' });
    // Assess
    expect([compressed.status, compressed.headers.get('location')]).toEqual([uncompressed.status, uncompressed.headers.get('location')]);
    const first = (compressed.headers.get('link') ?? '').split(', ').find((link) => link.includes('/01/05392000229648'));
    expect(first).toBe(`<${baseUrl()}${uncompressedPath}>; rel="owl:sameAs"`);
  });

  it('answers the linkset anchored at the uncompressed URI, and passes data attributes and other keys on before the request’s own query string', async () => {
    // Act
    const linkset = await get(`${tenantPath()}/${ISSUE_32}?linkType=linkset`);
    const withKeys = await get(`${tenantPath()}/${PROTOTYPE_WITH_KEYS}?utm_source=label`, { accept: 'application/json' });
    // Assess
    expect(linkset.status).toBe(200);
    expect(linkset.body.linkset[0].anchor).toBe(`${baseUrl()}${tenantPath()}/01/04006381333931`);
    expect(withKeys.status).toBe(307);
    expect(withKeys.headers.get('location')).toBe(`${pageOf('05412345000013', 'passport.json')}?7003=1903061658&expdt=1903061658&k1=v1&utm_source=label`);
    const uncompressed = `${baseUrl()}${tenantPath()}/01/05412345000013/10/ABC%26%2B123`;
    expect(withKeys.headers.get('link')?.split(', ')[0]).toBe(`<${uncompressed}?7003=1903061658&expdt=1903061658&k1=v1>; rel="owl:sameAs"`);
    expect(withKeys.headers.get('link')).toContain(`<${uncompressed}>; rel="canonical"`);
  });

  it('answers HEAD with the headers alone and OPTIONS with CORS', async () => {
    // Act
    const head = await get(`${tenantPath()}/${ISSUE_32}`, { accept: BROWSER }, 'HEAD');
    const options = await get(`${tenantPath()}/${ISSUE_32}`, { origin: 'https://shop.example', 'access-control-request-method': 'GET' }, 'OPTIONS');
    // Assess
    expect([head.status, head.headers.get('location'), head.text]).toEqual([307, pageOf('04006381333931', 'en'), '']);
    expect([options.status, options.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
  });

  it('resolves on a verified brand host at its root, and is 404 at the platform’s root (no tenant)', async () => {
    // Prepare
    const hostname = `cx${randomBytes(5).toString('hex')}.fixture.example`;
    const domain = await createDomain({ orgId: org.orgId, environment: 'live' }, { hostname }, SERVICE_ORIGIN);
    expect(await markVerified(domain, new Date().toISOString())).toBe('verified');
    // Act
    const brand = await get(`/${compressedGtin(`0${product.gtin}`)}`, { accept: BROWSER, 'x-forwarded-host': hostname });
    const platform = await get(`/${compressedGtin(`0${product.gtin}`)}`, { accept: 'application/json' });
    // Assess
    expect(brand.status).toBe(307);
    expect(brand.headers.get('location')).toBe(pageOf(`0${product.gtin}`, 'en'));
    expect(brand.headers.get('link')).toContain(`<https://${hostname}/01/0${product.gtin}>; rel="canonical"`);
    expect(platform.status).toBe(404);
    expect(platform.body.error.type).toBe('not_found');
  });

  it('answers a segment that is no compressed GTIN link with 404 and the error object (a page for browsers), never a 500, and counts no scan', async () => {
    // Prepare
    const before = (await sentScans(vectors['04006381333931']!.productId)).length;
    const cases: Array<[string, string]> = [
      // Padding bits that are not zero, after a valid GTIN.
      [`${tenantPath()}/AQdJnd9bVh`, 'padding'],
      // Cut short inside the GTIN.
      [`${tenantPath()}/AQdJnd9b`, 'ends in the middle'],
      // One character over the decompressor's budget (MAX_COMPRESSED_LENGTH, 512).
      [`${tenantPath()}/${ISSUE_32}${'A'.repeat(503)}`, 'at most 512 characters; this one has 513'],
      // A bad check digit: decompresses, and is no valid GTIN.
      [`${tenantPath()}/${compressedGtin('04006381333932')}`, 'check digit'],
      // An SSCC (AI 00): a link of another primary key, 404 as /00/… is.
      [`${tenantPath()}/${compressedKey('00', '106141412345678908')}`, 'AI 00'],
      // Not base64url at all.
      [`${tenantPath()}/favicon.ico`, 'only the characters'],
      // A GTIN nobody registered.
      [`${tenantPath()}/${compressedGtin('09506000134352')}`, 'No product information'],
    ];
    for (const [path, reason] of cases) {
      // Act
      const response = await get(path, { accept: 'application/json' });
      // Assess
      expect(response.status, path).toBe(404);
      expect(response.body.error.type, path).toBe('not_found');
      expect(response.body.error.message, path).toContain(reason);
    }
    const page = await get(`${tenantPath()}/AQdJnd9bVh`, { accept: BROWSER });
    expect([page.status, page.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
    expect((await sentScans(vectors['04006381333931']!.productId)).length).toBe(before);
  });
});
