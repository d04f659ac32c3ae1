import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { baseUrl, newOrg, type TestOrg } from '../support/api.ts';
import { checkContract } from '../support/contract.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Every kind of answer the resolver and the version pages give, as a client that does not follow
 * redirects sees it, held to the OpenAPI document: the status is declared, the body validates
 * against the schema declared for its media type (an HTML page where the document says text/html),
 * and each header the document calls required is there. What a validating proxy (Prism) would flag.
 */
const document = buildOpenApi();
let org: TestOrg;
let product: CreatedProduct;
const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';

beforeAll(async () => {
  org = await newOrg('Resolver Contract Org');
  product = await createProduct(org.live, { name: 'Contract Cuvée 2022' });
  await publish(org.live, product.productId);
});

/** One request without following redirects, checked against the document path item `template`. */
async function expectDeclared(method: string, path: string, template: string, headers: Record<string, string> = {}) {
  // Act
  const response = await fetch(`${baseUrl()}${path}`, { method, headers, redirect: 'manual' });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const body = contentType.includes('json') && text ? (JSON.parse(text) as unknown) : text;
  // Assess
  checkContract(method, `${baseUrl()}${path}`, response.status, contentType, body);
  const answer = document.paths[template]?.[method.toLowerCase()]?.responses[String(response.status)];
  expect(answer, `${method} ${template} ${response.status}`).toBeDefined();
  const mediaType = contentType.split(';')[0]?.trim() ?? '';
  if (text) expect(Object.keys(answer?.content ?? {}), `${path} ${response.status}`).toContain(mediaType);
  for (const [name, header] of Object.entries((answer?.headers ?? {}) as Record<string, { required?: boolean }>)) {
    if (header.required) expect(response.headers.get(name), `${path} ${response.status} ${name}`).not.toBeNull();
  }
  return response;
}

describe('the resolver answers only as the OpenAPI document declares', () => {
  const link = () => new URL(product.qrCodeUrl).pathname;

  it('307 with Location, Link, Vary and Cache-Control, also with qualifiers', async () => {
    const plain = await expectDeclared('GET', link(), '/{orgId}/{environment}/01/{gtin}', { accept: BROWSER });
    const lot = await expectDeclared('GET', `${link()}/10/LOT1`, '/{orgId}/{environment}/01/{gtin}/10/{lot}', { accept: 'application/json' });
    const head = await expectDeclared('HEAD', `${link()}/21/S1`, '/{orgId}/{environment}/01/{gtin}/21/{serial}');
    expect([plain.status, lot.status, head.status]).toEqual([307, 307, 307]);
  });

  it('200 application/linkset+json, valid against the Linkset component', async () => {
    const response = await expectDeclared('GET', `${link()}?linkType=linkset`, '/{orgId}/{environment}/01/{gtin}');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/linkset+json');
  });

  it('400 and 404 as a page for a browser and as the error object otherwise', async () => {
    const bad = `${link()}/99/X`;
    const unknown = link().replace(/\d{14}$/, '09506000134352');
    const statuses = [
      (await expectDeclared('GET', bad, '/{orgId}/{environment}/01/{gtin}/22/{cpv}', { accept: BROWSER })).status,
      (await expectDeclared('GET', bad, '/{orgId}/{environment}/01/{gtin}/22/{cpv}', { accept: 'application/json' })).status,
      (await expectDeclared('GET', unknown, '/{orgId}/{environment}/01/{gtin}', { accept: BROWSER })).status,
      (await expectDeclared('GET', unknown, '/{orgId}/{environment}/01/{gtin}', { accept: 'application/linkset+json' })).status,
      (await expectDeclared('GET', `${link()}?linkType=gs1:recipeInfo`, '/{orgId}/{environment}/01/{gtin}', { accept: 'application/json' })).status,
    ];
    expect(statuses).toEqual([400, 400, 404, 404, 404]);
  });

  it('the version pages: 200 text/html and application/json with Cache-Control, 404 as a page or the error object', async () => {
    const base = `/${org.orgId}/live/p/0${product.gtin}`;
    const template = '/{orgId}/{environment}/p/{gtin}/{version}/{page}';
    const statuses = [
      (await expectDeclared('GET', `${base}/1/fr`, template)).status,
      (await expectDeclared('GET', `${base}/1/passport.json`, template)).status,
      (await expectDeclared('HEAD', `${base}/1/en`, template)).status,
      (await expectDeclared('GET', `${base}/2/en`, template)).status,
      (await expectDeclared('GET', `${base}/2/passport.json`, template)).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 404, 404]);
  });
});
