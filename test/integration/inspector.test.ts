import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startIdentityProvider, INSPECT_CLIENT_ID, INSPECTOR_ACCOUNT, type IdentityProvider } from '../../infra/local/identity-provider.ts';
import { overlayItemData, type BatteryItemData, type BatteryPassportData } from '../../lib/domain/battery/index.ts';
import { ELEMENTS, filterByTier } from '../../lib/domain/battery/elements.ts';
import { valueAt } from '../../lib/domain/battery/paths.ts';
import { CALLBACK_BUDGETS, inspectUrl } from '../../lib/domain/inspect.ts';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { LoginBrowser } from '../support/login-browser.ts';

/**
 * Issue 38 point 14, market surveillance from a scan (docs/access.md#market-surveillance-authorities):
 * an inspector signs in at GET /inspect/{dppId} with an authority's identity provider (the local
 * stack's development provider, trusted through AUTHORITY_ISSUERS, its inspectors' client) by
 * driving the provider's login form over HTTP, reads the authority audience's elements (Annex XIII
 * points 1 to 3, never point 4), each read is logged in the owner's events with the issuer and the
 * subject, an untrusted issuer is refused, and the inspector's cookie opens no /v1 route.
 */

type Json = Record<string, any>;
const INSPECTOR_COOKIE = 'passport_inspector';
const SERIAL = 'INSP0001';
const model = batteryModelData('ev');
let itemData: Json;
let owner: TestOrg;
let battery: CreatedProduct;
const dpp = { item: '', model: '', test: '' };
/** The signed-in inspector: its browser (cookies) and the page the sign-in ended on. */
let inspector: { browser: LoginBrowser; cookie: string; landed: { response: Response; url: string }; authorize: URL };
let rogue: IdentityProvider;

/** The item's whole view as its owner reads it: the model's data with the battery's own laid over it. */
const itemView = (): Json => overlayItemData(model as BatteryPassportData, itemData as BatteryItemData) as Json;

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
/** Every text in a value, however deep. */
const textsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(textsOf) : [];

/** Signs in through the development provider's login form, starting from the passport's view as a browser does. */
async function signIn(dppId: string) {
  const browser = new LoginBrowser();
  const toForm = await browser.navigate(inspectUrl(baseUrl(), dppId));
  const html = await toForm.response.text();
  const landed = await browser.submitForm(toForm.url, html, { email: INSPECTOR_ACCOUNT.email, password: INSPECTOR_ACCOUNT.password });
  const authorize = new URL(browser.visited.find((u) => u.startsWith(`${inject('stack').oidcIssuer}/auth?`)) ?? 'http://localhost/none');
  return { browser, cookie: `${INSPECTOR_COOKIE}=${browser.cookies.get(INSPECTOR_COOKIE) ?? ''}`, landed, authorize };
}

const readAs = (cookie: string, dppId: string, how: { accept?: string; format?: 'json' } = { format: 'json' }) =>
  call('GET', `/inspect/${dppId}${how.format ? `?format=${how.format}` : ''}`, { headers: { cookie, ...(how.accept ? { accept: how.accept } : {}) } });

const inspectorEvents = async (dppId: string): Promise<Json[]> => {
  const events = (await call('GET', '/v1/events?type=passport.accessed&limit=100', { key: owner.live })).body.data as Json[];
  return events.filter((event) => event.actor.type === 'inspector' && event.data.object.dppId === dppId);
};

beforeAll(async () => {
  owner = await newOrg('Inspected Cell Maker');
  battery = await createProduct(owner.live, { name: 'Inspected traction battery', category: 'battery' });
  await publish(owner.live, battery.productId, model);
  itemData = batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/${SERIAL}`, serial: SERIAL });
  const item = await call('PUT', `/v1/products/${battery.productId}/items/${SERIAL}?force=true`, { key: owner.live, body: { data: itemData } });
  if (item.status !== 201) throw new Error(`set-up: ${item.status} ${item.text}`);
  dpp.item = item.body.dppId;
  dpp.model = (await call('GET', `/v1/products/${battery.productId}/passport`, { key: owner.live })).body.dppId;
  // The owner's test environment: a test passport stays its owner's.
  const testBattery = await createProduct(owner.test, { name: 'Inspected sandbox battery', category: 'battery' });
  await publish(owner.test, testBattery.productId, model);
  dpp.test = (await call('GET', `/v1/products/${testBattery.productId}/passport`, { key: owner.test })).body.dppId;
  inspector = await signIn(dpp.item);
  // An identity provider the service does not trust, with the same inspector account and a client for the service's callback.
  rogue = await startIdentityProvider({ redirectUris: ['http://localhost/unused'], inspectRedirectUris: [`${baseUrl()}/inspect/callback`] });
});

afterAll(async () => {
  await rogue?.stop();
});

describe('issue 38 point 14: an authority inspector signs in and reads from a scan', () => {
  it('point 14: a signed-in inspector reads points 1 to 3 of a battery, never point 4, as a page and as JSON', async () => {
    // Prepare: the battery's view holds elements of every point, point 4 among them
    const view = itemView();
    const withValue = ELEMENTS.filter((element) => valueAt(view, element.path) !== undefined);
    const point4 = withValue.filter((element) => element.annexXIII?.point === 4);
    const points2and3 = withValue.filter((element) => element.annexXIII?.point === 2 || element.annexXIII?.point === 3);
    expect(point4.length).toBeGreaterThan(3);
    expect(points2and3.filter((element) => element.annexXIII?.point === 3).length).toBeGreaterThan(0);

    // Act: the page the sign-in ended on, then the JSON form both ways
    const { landed, authorize } = inspector;
    const pageHtml = await landed.response.text();
    const byFormat = await readAs(inspector.cookie, dpp.item);
    const byAccept = await readAs(inspector.cookie, dpp.item, { accept: 'application/json' });
    const modelRead = await readAs(inspector.cookie, dpp.model);

    // Assess: an authorization code request with PKCE, state and nonce to the trusted issuer's inspectors' client
    expect(authorize.searchParams.get('client_id')).toBe(INSPECT_CLIENT_ID);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${baseUrl()}/inspect/callback`);
    // … back on the passport's view, signed in with a short-lived HttpOnly cookie, the sign-in's own cookie gone
    expect(landed.url).toBe(inspectUrl(baseUrl(), dpp.item));
    expect(landed.response.status).toBe(200);
    expect(landed.response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(landed.response.headers.get('cache-control')).toBe('no-store');
    const set = inspector.browser.setCookies.find((line) => line.startsWith(`${INSPECTOR_COOKIE}=`)) ?? '';
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Lax/);
    expect(Number(/Max-Age=(\d+)/.exec(set)?.[1])).toBeLessThanOrEqual(1800);
    expect(inspector.browser.cookies.has('passport_inspector_login')).toBe(false);
    // The page names the authority and shows a point 3 value (the test report), and no text of point 4 (a negative event's)
    const point3Text = points2and3.filter((element) => element.annexXIII?.point === 3).map((element) => valueAt(view, element.path)).find((value) => typeof value === 'string');
    const point4Texts = point4.flatMap((element) => textsOf(valueAt(view, element.path))).filter((text) => text.length >= 30);
    expect(pageHtml).toContain('Development market surveillance authority');
    expect(typeof point3Text).toBe('string');
    expect(pageHtml).toContain(escapeHtml(String(point3Text)));
    expect(point4Texts.length).toBeGreaterThan(0);
    for (const text of point4Texts) expect(pageHtml).not.toContain(escapeHtml(text));
    // JSON: exactly what the authority audience reads (the one filter), points 2 and 3 there, point 4 absent
    expect(byFormat.status, byFormat.text).toBe(200);
    expect(byFormat.body).toMatchObject({ digitalProductPassportId: dpp.item, accessTier: 'authority', audiences: ['public', 'authority'], unit: { kind: 'item', serial: SERIAL } });
    expect(byFormat.body.data).toEqual(filterByTier(view, 'authority'));
    for (const element of points2and3) expect(valueAt(byFormat.body.data, element.path), element.path).toEqual(valueAt(view, element.path));
    for (const element of point4) expect(valueAt(byFormat.body.data, element.path), element.path).toBeUndefined();
    expect(byAccept.body).toEqual(byFormat.body);
    expect(modelRead.body.data).toEqual(filterByTier(model, 'authority'));
  });

  it("point 14: each read is a passport.accessed event in the owner's log naming the issuer and the subject", async () => {
    // Prepare
    const before = await inspectorEvents(dpp.item);

    // Act: two reads
    const first = await readAs(inspector.cookie, dpp.item);
    await readAs(inspector.cookie, dpp.item, { accept: 'application/json' });
    const after = await inspectorEvents(dpp.item);

    // Assess: one event per read, newest first, naming the authority, the issuer and the subject, with the restricted elements served
    expect(after.length - before.length).toBe(2);
    const restricted = ELEMENTS.filter((element) => !element.audiences.includes('public') && valueAt(first.body.data, element.path) !== undefined).map((element) => element.path);
    expect(restricted.length).toBeGreaterThan(2);
    const [newest] = after;
    expect(newest).toMatchObject({
      type: 'passport.accessed',
      actor: { type: 'inspector', name: 'Development market surveillance authority' },
      data: {
        object: {
          object: 'passport_access',
          dppId: dpp.item,
          productId: battery.productId,
          reader: { tier: 'authority', audiences: ['public', 'authority'], via: 'inspector', issuer: inject('stack').oidcIssuer, authority: 'Development market surveillance authority' },
        },
      },
    });
    expect(newest?.data.object.reader.subject).toMatch(/^dev_[0-9a-f]{24}$/);
    expect(newest?.actor.id).toBe(newest?.data.object.reader.subject);
    expect([...newest!.data.object.elements].sort()).toEqual([...restricted].sort());
    expect(newest?.data.object.elements.some((path: string) => ELEMENTS.find((element) => element.path === path)?.annexXIII?.point === 4)).toBe(false);
    // The subject is the inspector's at its provider, not an e-mail: the log keeps no more of the person
    expect(JSON.stringify(newest)).not.toContain(INSPECTOR_ACCOUNT.email);
  });

  it('point 14: a test passport reads as the public does, and nothing is logged', async () => {
    // Act
    const read = await readAs(inspector.cookie, dpp.test);
    const events = (await call('GET', '/v1/events?type=passport.accessed&limit=100', { key: owner.test })).body.data as Json[];

    // Assess
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ accessTier: 'public', audiences: ['public'] });
    expect(read.body.data).toEqual(filterByTier(model, 'public'));
    expect(events.filter((event) => event.actor.type === 'inspector')).toEqual([]);
  });

  it('point 14: an identity from an issuer not on the trusted list is refused, and nothing is served', async () => {
    // Act 1: a sign-in asking for the untrusted provider
    const asked = await fetch(`${baseUrl()}/inspect/sign-in?${new URLSearchParams({ dppId: dpp.item, issuer: rogue.issuer })}`, { redirect: 'manual' });
    const askedBody = (await asked.json()) as Json;

    // Act 2: a sign-in started here, finished at the untrusted provider (the same request sent there), back to the callback
    const browser = new LoginBrowser();
    const started = await browser.fetch(`${baseUrl()}/inspect/sign-in?${new URLSearchParams({ dppId: dpp.item })}`);
    const trustedAuthorize = new URL(started.headers.get('location') ?? '');
    const toForm = await browser.navigate(`${rogue.issuer}/auth${trustedAuthorize.search}`);
    const finished = await browser.submitForm(toForm.url, await toForm.response.text(), { email: INSPECTOR_ACCOUNT.email, password: INSPECTOR_ACCOUNT.password });
    const finishedBody = (await finished.response.json()) as Json;
    const afterwards = await readAs(`${INSPECTOR_COOKIE}=${browser.cookies.get(INSPECTOR_COOKIE) ?? ''}`, dpp.item);

    // Assess: 403 naming the issuer, no redirect, no cookie; the rogue answer reached the callback and was refused there
    expect(asked.status).toBe(403);
    expect(asked.headers.get('location')).toBeNull();
    expect(asked.headers.getSetCookie()).toEqual([]);
    expect(askedBody.error).toMatchObject({ type: 'permission_error', param: 'issuer' });
    expect(started.status).toBe(302);
    expect(trustedAuthorize.origin).toBe(new URL(inject('stack').oidcIssuer).origin);
    expect(new URL(finished.url).pathname).toBe('/inspect/callback');
    expect(new URL(finished.url).searchParams.get('iss')).toBe(rogue.issuer);
    expect(finished.response.status).toBe(403);
    expect(finishedBody.error).toMatchObject({ type: 'permission_error', param: 'iss' });
    expect(browser.cookies.has(INSPECTOR_COOKIE)).toBe(false);
    expectError(afterwards, 401, 'authentication_error');
  });

  it("point 14: an inspector's cookie opens no /v1 route, and reads the API as the public does", async () => {
    // Act
    const products = await call('GET', '/v1/products', { headers: { cookie: inspector.cookie } });
    const events = await call('GET', '/v1/events', { headers: { cookie: inspector.cookie } });
    const session = await call('GET', '/v1/auth/session', { headers: { cookie: inspector.cookie } });
    // The inspector's cookie under the dashboard session's name: sealed for another purpose
    const disguised = await call('GET', '/v1/auth/session', { headers: { cookie: inspector.cookie.replace(`${INSPECTOR_COOKIE}=`, 'passport_session=') } });
    const apiRead = await call('GET', `/v1/dpps/${dpp.item}`, { headers: { cookie: inspector.cookie } });

    // Assess
    for (const response of [products, events, session, disguised]) expectError(response, 401, 'authentication_error');
    expect(apiRead.status).toBe(200);
    expect(apiRead.body).toMatchObject({ accessTier: 'public', audiences: ['public'] });
    expect(apiRead.body.data).toEqual(filterByTier(itemView(), 'public'));
  });

  it('point 14: without signing in, the page goes to the sign-in and the JSON form is 401; an id that names nothing is 404', async () => {
    // Act
    const page = await fetch(inspectUrl(baseUrl(), dpp.item), { redirect: 'manual', headers: { accept: 'text/html' } });
    const jsonForm = await call('GET', `/inspect/${dpp.item}?format=json`);
    const tampered = await call('GET', `/inspect/${dpp.item}?format=json`, { headers: { cookie: `${INSPECTOR_COOKIE}=${inspector.cookie.slice(INSPECTOR_COOKIE.length + 1, -4)}AAAA` } });
    const unknown = await readAs(inspector.cookie, `${dpp.model.slice(0, -2)}xx`);
    const unknownQuery = await call('GET', `/inspect/${dpp.item}?expand=all`, { headers: { cookie: inspector.cookie } });
    const signInForNothing = await call('GET', `/inspect/sign-in?dppId=${dpp.model.slice(0, -2)}xx`);

    // Assess
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`/inspect/sign-in?dppId=${dpp.item}`);
    expect(expectError(jsonForm, 401, 'authentication_error').suggestion).toContain(`/inspect/sign-in?dppId=${dpp.item}`);
    expectError(tampered, 401, 'authentication_error');
    expect(tampered.headers.get('set-cookie')).toMatch(/^passport_inspector=; .*Max-Age=0/);
    expectError(unknown, 404, 'not_found', 'dppId');
    expectError(unknownQuery, 400, 'invalid_request_error', 'expand');
    expectError(signInForNothing, 422, 'validation_error', 'dppId');
  });

  it("point 14: the public battery page links to the inspectors' view of that battery, and the model's page to the model's", async () => {
    // Act: a scan of the battery's Digital Link and of the model's, as a phone's browser makes it
    const itemPage = await fetch(`${battery.qrCodeUrl}/21/${SERIAL}`, { headers: { accept: 'text/html', 'accept-language': 'en' } });
    const modelPage = await fetch(battery.qrCodeUrl, { headers: { accept: 'text/html', 'accept-language': 'en' } });
    const itemHtml = await itemPage.text();
    const modelHtml = await modelPage.text();

    // Assess: each page links to its own passport's view; following the link as the inspector reads that passport
    expect(itemPage.status).toBe(200);
    expect(itemHtml).toContain(`href="${inspectUrl(baseUrl(), dpp.item)}"`);
    expect(itemHtml).not.toContain(`href="${inspectUrl(baseUrl(), dpp.model)}"`);
    expect(modelHtml).toContain(`href="${inspectUrl(baseUrl(), dpp.model)}"`);
    const linked = /href="([^"]*\/inspect\/[^"]*)"/.exec(itemHtml)?.[1] ?? '';
    const followed = await fetch(`${linked}?format=json`, { headers: { cookie: inspector.cookie } });
    expect(((await followed.json()) as Json).digitalProductPassportId).toBe(dpp.item);
  });

  it(`attack: a callback whose code is one character over its budget (${CALLBACK_BUDGETS.code}) is refused with 422 naming code, before anything else is read`, async () => {
    // Prepare: no sign-in in progress, so a 401 would mean the query was not checked first
    const atBudget = 'a'.repeat(CALLBACK_BUDGETS.code);
    const over = `${atBudget}a`;
    const state = 's'.repeat(CALLBACK_BUDGETS.state + 1);

    // Act
    const refused = await call('GET', `/inspect/callback?code=${over}&state=abc`);
    const refusedState = await call('GET', `/inspect/callback?code=abc&state=${state}`);
    const atTheBudget = await call('GET', `/inspect/callback?code=${atBudget}&state=abc`);
    const extra = await call('GET', '/inspect/callback?code=abc&state=abc&redirect=https://evil.example');

    // Assess
    expectError(refused, 422, 'validation_error', 'code');
    expectError(refusedState, 422, 'validation_error', 'state');
    expectError(atTheBudget, 401, 'authentication_error');
    expectError(extra, 400, 'invalid_request_error', 'redirect');
  });
});

