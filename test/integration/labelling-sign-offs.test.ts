import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { platformEntry } from '../../lib/domain/labelling-term.ts';
import { baseUrl, call, expectError, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';

/**
 * A compliance officer signs off a language of the e-label (docs/labelling.md#sign-off):
 * `/v1/labelling/sign-offs`. A later change of a term re-opens the sign-off and names the term;
 * with `labelLanguages: "signed-off"` (`/v1/labelling/settings`) the versions published afterwards
 * offer only the languages whose sign-off holds, through the resolver.
 */

interface TermState {
  text: string;
  evidence: { level: string; source: string };
  overridden: boolean;
  platformText: string;
}
interface SignOffStatus {
  lang: string;
  status: 'signed' | 'reopened' | 'none';
  digest: string;
  signOff: { lang: string; digest: string; signedAt: string; signedBy: { type: string; id: string; name?: string }; termCount: number } | null;
  changedTerms: { key: string; before: TermState | null; after: TermState | null }[];
}
interface LanguageSignOff extends SignOffStatus {
  terms: { key: string; kind: string; text: string; overridden: boolean; evidence: { level: string; source: string; citation: string } }[];
}

let org: TestOrg;
let officer: TestSession;

beforeAll(async () => {
  org = await newOrg('Sign-off Winery');
  officer = await newSession(org.orgId);
});

const signOffs = async (key = org.live) => {
  const response = await call<{ data: SignOffStatus[] }>('GET', '/v1/labelling/sign-offs', { key });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
};
const statusOf = async (lang: string, key = org.live) => (await signOffs(key)).find((entry) => entry.lang === lang);
const eventsOf = async (type: string) => (await call<{ data: { id: string; actor: { type: string; id: string }; data: { object: SignOffStatus } }[] }>('GET', `/v1/events?type=${type}`, { session: officer })).body.data;
const languageLinks = (html: string) => [...html.matchAll(/<a href="(\w+)" hreflang=/g)].map((match) => match[1]);

describe('signing off a language', () => {
  it('records who signed, when, and the digest of every term the pages use; a second sign-off of unchanged terms answers the same, writing nothing', async () => {
    // Prepare: what the officer reads
    const read = await call<LanguageSignOff>('GET', '/v1/labelling/sign-offs/de', { session: officer });
    const eventsBefore = (await eventsOf('labelling.sign_off.created')).length;
    // Act
    const first = await call<SignOffStatus>('POST', '/v1/labelling/sign-offs', { session: officer, body: { lang: 'de', digest: read.body.digest } });
    const again = await call<SignOffStatus>('POST', '/v1/labelling/sign-offs', { session: officer, body: { lang: 'de' } });
    // Assess
    expect(read.status, read.text).toBe(200);
    expect(read.body.status).toBe('none');
    expect(read.body.terms.find((term) => term.key === 'text:energy')).toMatchObject({ text: 'Brennwert', evidence: { level: 'official-copy', citation: expect.any(String) } });
    expect(read.body.terms.some((term) => term.kind === 'ingredient')).toBe(true);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('location')).toBe('/v1/labelling/sign-offs/de');
    expect(first.body).toMatchObject({
      lang: 'de',
      status: 'signed',
      digest: read.body.digest,
      signOff: { digest: read.body.digest, signedBy: { type: 'user', id: officer.userId, name: officer.email }, termCount: read.body.terms.length },
      changedTerms: [],
    });
    expect(again.status).toBe(200);
    expect(again.body.signOff).toEqual(first.body.signOff);
    expect((await eventsOf('labelling.sign_off.created')).length - eventsBefore).toBe(1);
    expect(await statusOf('de')).toMatchObject({ status: 'signed', signOff: first.body.signOff });
    expect((await statusOf('fr'))?.status).toBe('none');
    expect((await signOffs()).map((entry) => entry.lang)).toEqual([...LANGUAGES]);
  });

  it('is re-opened by a correction of one term, naming it as signed and as now; signing again holds until the correction is removed', async () => {
    // Prepare
    const signed = await call<SignOffStatus>('POST', '/v1/labelling/sign-offs', { session: officer, body: { lang: 'fr' } });
    // Act: one term corrected through the corrections' route
    const corrected = await call('PUT', '/v1/labelling/terms/fr/contains', { key: org.live, body: { text: 'Allergènes : {list}' } });
    const reopened = await statusOf('fr');
    const resigned = await call<SignOffStatus>('POST', '/v1/labelling/sign-offs', { key: org.live, body: { lang: 'fr' } });
    const cleared = await call('DELETE', '/v1/labelling/terms/fr/contains', { key: org.live });
    const reopenedAgain = await statusOf('fr');
    // Assess
    expect(signed.status).toBe(201);
    expect(corrected.status, corrected.text).toBe(200);
    expect(reopened).toMatchObject({ status: 'reopened', signOff: signed.body.signOff });
    expect(reopened?.changedTerms).toEqual([
      {
        key: 'text:contains',
        before: expect.objectContaining({ text: platformEntry('fr', 'contains')?.text, overridden: false, evidence: { level: platformEntry('fr', 'contains')?.evidence?.level, source: platformEntry('fr', 'contains')?.evidence?.source } }),
        after: expect.objectContaining({ text: 'Allergènes : {list}', overridden: true, evidence: { level: 'unconfirmed', source: 'organization' } }),
      },
    ]);
    expect(reopened?.digest).not.toBe(signed.body.digest);
    // A key with labelling:write signs too, and is recorded as the key.
    expect(resigned.status, resigned.text).toBe(201);
    expect(resigned.body.signOff?.signedBy).toMatchObject({ type: 'api_key', id: expect.stringMatching(/^key_/) });
    expect(cleared.status).toBe(200);
    expect(reopenedAgain?.status).toBe('reopened');
    expect(reopenedAgain?.changedTerms.map((change) => change.key)).toEqual(['text:contains']);
    expect(reopenedAgain?.changedTerms[0]?.after).toMatchObject({ overridden: false });
  });

  it('writes labelling.sign_off.created naming the signer', async () => {
    // Act
    const response = await call<SignOffStatus>('POST', '/v1/labelling/sign-offs', { session: officer, body: { lang: 'it' } });
    const [event] = await eventsOf('labelling.sign_off.created');
    // Assess
    expect(response.status).toBe(201);
    expect(event?.actor).toMatchObject({ type: 'user', id: officer.userId });
    expect(event?.data.object).toMatchObject({ lang: 'it', status: 'signed', digest: response.body.digest });
  });
});

describe('refusals', () => {
  it.each([
    ['names no language of the 24', { lang: 'xx' }, 'lang'],
    ['names no language', {}, 'lang'],
    ['names a language in upper case', { lang: 'DE' }, 'lang'],
    ['has a digest one character longer than a digest', { lang: 'de', digest: `sha256:${'A'.repeat(44)}` }, 'digest'],
    ['names an unknown field', { lang: 'de', signer: 'me' }, 'signer'],
  ])('refuses a sign-off that %s (422 naming the field) and signs nothing', async (_what, body, param) => {
    // Prepare
    const before = await statusOf('pl');
    // Act
    const response = await call('POST', '/v1/labelling/sign-offs', { key: org.live, body });
    // Assess
    expectError(response, 422, 'validation_error', param);
    expect(await statusOf('pl')).toEqual(before);
  });

  it('refuses to sign terms that changed since they were read (409 naming digest)', async () => {
    // Prepare: the officer reads Polish, then someone corrects a term
    const read = await call<LanguageSignOff>('GET', '/v1/labelling/sign-offs/pl', { key: org.live });
    await call('PUT', '/v1/labelling/terms/pl/salt', { key: org.live, body: { text: 'Sól (NaCl)' } });
    // Act
    const response = await call('POST', '/v1/labelling/sign-offs', { session: officer, body: { lang: 'pl', digest: read.body.digest } });
    // Assess
    expectError(response, 409, 'conflict', 'digest');
    expect((await statusOf('pl'))?.status).toBe('none');
  });

  it('answers 404 for a language not of the 24 in the path, 400 for a query, 422 for a bad setting; signing needs labelling:write', async () => {
    // Prepare
    const reader = await org.keyWith(['labelling:read']);
    // Act
    const unknown = await call('GET', '/v1/labelling/sign-offs/xx', { key: org.live });
    const query = await call('GET', '/v1/labelling/sign-offs?lang=de', { key: org.live });
    const setting = await call('PUT', '/v1/labelling/settings', { key: org.live, body: { labelLanguages: 'some' } });
    const missing = await call('PUT', '/v1/labelling/settings', { key: org.live, body: {} });
    const readerSigns = await call('POST', '/v1/labelling/sign-offs', { key: reader, body: { lang: 'de' } });
    const readerReads = await call('GET', '/v1/labelling/sign-offs', { key: reader });
    // Assess
    expectError(unknown, 404, 'not_found', 'lang');
    expectError(query, 400, 'invalid_request_error', 'lang');
    expectError(setting, 422, 'validation_error', 'labelLanguages');
    expectError(missing, 422, 'validation_error', 'labelLanguages');
    expectError(readerSigns, 403, 'permission_error');
    expect(readerReads.status).toBe(200);
  });
});

describe('the sign-offs belong to the tenant', () => {
  it("a sign-off and the setting in live show neither in the organization's test environment nor in another organization", async () => {
    // Prepare
    const other = await newOrg('Other Sign-off Winery');
    await call('POST', '/v1/labelling/sign-offs', { key: org.live, body: { lang: 'sv' } });
    await call('PUT', '/v1/labelling/settings', { key: org.live, body: { labelLanguages: 'signed-off' } });
    // Act
    const test = await statusOf('sv', org.test);
    const foreign = await signOffs(other.live);
    const foreignOne = await call<LanguageSignOff>('GET', '/v1/labelling/sign-offs/sv', { key: other.live });
    const foreignSettings = await call('GET', '/v1/labelling/settings', { key: other.live });
    const testSettings = await call('GET', '/v1/labelling/settings', { key: org.test });
    // Assess
    expect(test?.status).toBe('none');
    expect(foreign.every((entry) => entry.status === 'none' && entry.signOff === null)).toBe(true);
    expect(foreignOne.body.signOff).toBeNull();
    expect(foreignSettings.body).toEqual({ labelLanguages: 'all', signedLanguages: [], updatedAt: null });
    expect(testSettings.body.labelLanguages).toBe('all');
    expect(JSON.stringify(foreign)).not.toContain(officer.userId);
  });
});

describe('labelLanguages "signed-off": the pages offer only the languages signed off, through the resolver', () => {
  it('fixes the signed languages into each version as it is published: the language links follow them, a language not offered redirects to one offered', async () => {
    // Prepare: an organization of its own; German and French signed off, a wine labelled in French published before the setting
    const winery = await newOrg('Signed Pages Winery');
    for (const lang of ['de', 'fr']) expect((await call('POST', '/v1/labelling/sign-offs', { key: winery.live, body: { lang } })).status).toBe(201);
    const product = await createProduct(winery.live, { name: 'Riesling Signé 2023' });
    const wine = { ...RED_WINE, labelLanguage: 'fr' };
    await publish(winery.live, product.productId, wine);
    const versionPage = (version: number, lang: string) => fetch(`${baseUrl()}/${winery.orgId}/live/p/0${product.gtin}/${version}/${lang}`, { redirect: 'manual' });

    // Act: offer only what is signed off, and publish version 2
    const saved = await call('PUT', '/v1/labelling/settings', { key: winery.live, body: { labelLanguages: 'signed-off' } });
    await publish(winery.live, product.productId, wine);
    const [v2de, v2it, v1it] = await Promise.all([versionPage(2, 'de'), versionPage(2, 'it'), versionPage(1, 'it')]);
    const scan = await fetch(`${baseUrl()}${new URL(product.qrCodeUrl).pathname}`, { redirect: 'manual', headers: { accept: 'text/html', 'accept-language': 'de' } });
    // Assess: version 2 offers German and French, links only those, sends Italian to the label language
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ labelLanguages: 'signed-off', signedLanguages: ['de', 'fr'] });
    expect(v2de.status).toBe(200);
    expect(languageLinks(await v2de.text())).toEqual(['fr']);
    expect(v2it.status).toBe(301);
    expect(v2it.headers.get('location')).toBe('fr');
    expect(v2it.headers.get('cache-control')).toContain('immutable');
    // The version published before the setting keeps its 24 languages; the scan leads to version 2 in German.
    expect(v1it.status).toBe(200);
    expect(languageLinks(await v1it.text())).toHaveLength(23);
    expect(scan.status).toBe(307);
    expect(scan.headers.get('location')).toMatch(new RegExp(`/p/0${product.gtin}/2/de$`));

    // Act: a correction re-opens German; version 3 is published
    await call('PUT', '/v1/labelling/terms/de/contains', { key: winery.live, body: { text: 'Allergene: {list}' } });
    await publish(winery.live, product.productId, wine);
    const [v3de, v3fr, v2deAgain] = await Promise.all([versionPage(3, 'de'), versionPage(3, 'fr'), versionPage(2, 'de')]);
    const settings = await call('GET', '/v1/labelling/settings', { key: winery.live });
    // Assess: version 3 offers French alone (no language links); version 2 is unchanged
    expect(settings.body.signedLanguages).toEqual(['fr']);
    expect(v3de.status).toBe(301);
    expect(v3de.headers.get('location')).toBe('fr');
    expect(v3fr.status).toBe(200);
    expect(languageLinks(await v3fr.text())).toEqual([]);
    expect(v2deAgain.status).toBe(200);
  });

  it('offers the label language alone when no language is signed off, and all 24 again under "all"', async () => {
    // Prepare
    const winery = await newOrg('Unsigned Pages Winery');
    const product = await createProduct(winery.live, { name: 'Grüner Veltliner 2024' });
    await call('PUT', '/v1/labelling/settings', { key: winery.live, body: { labelLanguages: 'signed-off' } });
    // Act
    await publish(winery.live, product.productId, { ...RED_WINE, labelLanguage: 'de' });
    await call('PUT', '/v1/labelling/settings', { key: winery.live, body: { labelLanguages: 'all' } });
    await publish(winery.live, product.productId, { ...RED_WINE, labelLanguage: 'de' });
    const versionPage = (version: number, lang: string) => fetch(`${baseUrl()}/${winery.orgId}/live/p/0${product.gtin}/${version}/${lang}`, { redirect: 'manual' });
    const [v1en, v1de, v2en] = await Promise.all([versionPage(1, 'en'), versionPage(1, 'de'), versionPage(2, 'en')]);
    // Assess
    expect(v1en.status).toBe(301);
    expect(v1en.headers.get('location')).toBe('de');
    expect(v1de.status).toBe(200);
    expect(v2en.status).toBe(200);
    expect(languageLinks(await v2en.text())).toHaveLength(23);
  });

  it('writes labelling.settings.updated with the setting', async () => {
    // Act
    const response = await call('PUT', '/v1/labelling/settings', { session: officer, body: { labelLanguages: 'all' } });
    const events = await call<{ data: { actor: { id: string }; data: { object: { labelLanguages: string } } }[] }>('GET', '/v1/events?type=labelling.settings.updated', { session: officer });
    // Assess
    expect(response.status).toBe(200);
    expect(events.body.data[0]).toMatchObject({ actor: { id: officer.userId }, data: { object: { labelLanguages: 'all' } } });
  });
});
