import { beforeAll, describe, expect, it } from 'vitest';
import { legalTermKeys, MAX_TERM_OVERRIDES_BYTES, MAX_TERM_TEXT, placeholdersOf, platformEntry } from '../../lib/domain/labelling-term.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import { TEXT_KEYS, type TextKey } from '../../lib/domain/labelling/texts.ts';
import { call, expectError, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { eventually } from '../support/queues.ts';

/**
 * An organization corrects a legal term of its e-label (docs/labelling.md#correcting-a-term):
 * `/v1/labelling/terms`. The correction belongs to the tenant (organization + environment), and
 * the pages of versions published after it show it, while earlier versions keep their wording.
 */

interface Term {
  lang: string;
  termKey: string;
  text: string;
  platformText: string;
  source: string;
  status: 'confirmed' | 'unconfirmed';
  evidence: { level: string; source: string; citation: string };
  override: { text: string; note: string | null; updatedAt: string; updatedBy: { type: string; id: string } } | null;
}

let org: TestOrg;
let session: TestSession;

beforeAll(async () => {
  org = await newOrg('Wording Winery');
  session = await newSession(org.orgId);
});

const termPath = (lang: string, key: string) => `/v1/labelling/terms/${lang}/${key}`;
const elabel = (gtin13: string, version: number, lang: string) => call('GET', `/${org.orgId}/live/p/0${gtin13}/${version}/${lang}`);

describe('GET /v1/labelling/terms', () => {
  it("lists every legal term of the languages asked for, with the platform's wording, source and status", async () => {
    // Act
    const response = await call<{ data: Term[] }>('GET', '/v1/labelling/terms?lang=de,fr', { key: org.live });
    // Assess
    expect(response.status, response.text).toBe(200);
    const terms = response.body.data;
    expect(terms).toHaveLength(legalTermKeys('de').length + legalTermKeys('fr').length);
    expect(terms.map((t) => t.termKey)).not.toContain('pageKicker');
    expect(terms.find((t) => t.lang === 'de' && t.termKey === 'energy')).toEqual({
      lang: 'de',
      termKey: 'energy',
      text: 'Brennwert',
      platformText: 'Brennwert',
      source: 'eu-1169-2011-annex-xv',
      status: 'confirmed',
      evidence: { level: 'official-copy', source: 'ev-de-annex-i', citation: expect.stringContaining('gesetze.legal') },
      override: null,
    });
    // "davon" of "davon Zucker" was seen only on a producer's page: secondary, so not confirmed.
    expect(terms.find((t) => t.lang === 'de' && t.termKey === 'sugars')?.evidence.level).toBe('secondary');
    expect(terms.find((t) => t.lang === 'fr' && t.termKey === 'sugars')?.status).toBe('unconfirmed');
  });

  it('filters to the unconfirmed terms, and lists all 24 languages when none is asked for', async () => {
    // Act
    const unconfirmed = await call<{ data: Term[] }>('GET', '/v1/labelling/terms?lang=fr&status=unconfirmed', { key: org.live });
    const all = await call<{ data: Term[] }>('GET', '/v1/labelling/terms', { key: org.live });
    // Assess
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.body.data.length).toBeGreaterThan(0);
    expect(unconfirmed.body.data.every((t) => t.status === 'unconfirmed' && t.lang === 'fr')).toBe(true);
    expect(new Set(all.body.data.map((t) => t.lang)).size).toBe(24);
  });

  it('refuses a language that is not one of the 24 (422 naming lang) and an unknown query parameter (400)', async () => {
    // Act
    const badLang = await call('GET', '/v1/labelling/terms?lang=de,xx', { key: org.live });
    const unknown = await call('GET', '/v1/labelling/terms?language=de', { key: org.live });
    // Assess
    expectError(badLang, 422, 'validation_error', 'lang');
    expectError(unknown, 400, 'invalid_request_error', 'language');
  });
});

describe('PUT /v1/labelling/terms/{lang}/{termKey}', () => {
  it("sets the organization's wording, answers the term with it and writes labelling_term.updated", async () => {
    // Act
    const response = await call<Term>('PUT', termPath('de', 'saturates'), { session, body: { text: '  davon gesättigte Fettsäuren ', note: 'Annex XV, German version' } });
    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      lang: 'de',
      termKey: 'saturates',
      text: 'davon gesättigte Fettsäuren',
      platformText: expect.any(String),
      override: { text: 'davon gesättigte Fettsäuren', note: 'Annex XV, German version', updatedBy: { type: 'user', id: session.userId } },
    });
    const read = await call<Term>('GET', termPath('de', 'saturates'), { key: org.live });
    expect(read.body.override?.text).toBe('davon gesättigte Fettsäuren');
    const events = await call<{ data: { type: string; requestId: string; data: { object: Term } }[] }>('GET', '/v1/events?type=labelling_term.updated', { session });
    expect(events.body.data[0]?.data.object).toMatchObject({ lang: 'de', termKey: 'saturates', text: 'davon gesättigte Fettsäuren' });
    expect(events.body.data[0]?.requestId).toBe(response.headers.get('request-id'));
  });

  it.each([
    ['drops a placeholder of the platform text', { text: 'Enthält Sulfite' }, 'text'],
    ['adds a placeholder the platform text lacks', { text: 'Enthält: {list} {year}' }, 'text'],
    ['holds a line break', { text: 'Enthält:\n{list}' }, 'text'],
    ['is longer than 200 characters', { text: `{list} ${'x'.repeat(200)}` }, 'text'],
    ['is empty once trimmed', { text: '   ' }, 'text'],
    ['has a note over 500 characters', { text: 'Enthält: {list}', note: 'n'.repeat(501) }, 'note'],
    ['names an unknown field', { text: 'Enthält: {list}', reason: 'x' }, 'reason'],
  ])('refuses a text that %s (422) and stores nothing', async (_what, body, param) => {
    // Act
    const response = await call('PUT', termPath('de', 'contains'), { key: org.live, body });
    // Assess
    expectError(response, 422, 'validation_error', param);
    expect((await call<Term>('GET', termPath('de', 'contains'), { key: org.live })).body.override).toBeNull();
  });

  it('refuses an interface text (422 naming termKey), an unknown key and an unknown language (404)', async () => {
    // Act
    const ui = await call('PUT', termPath('de', 'pageKicker'), { key: org.live, body: { text: 'Info' } });
    const unknownKey = await call('PUT', termPath('de', 'nonsense'), { key: org.live, body: { text: 'Info' } });
    const unknownLang = await call('PUT', termPath('xx', 'sugars'), { key: org.live, body: { text: 'Info' } });
    // Assess
    expectError(ui, 422, 'validation_error', 'termKey');
    expectError(unknownKey, 404, 'not_found', 'termKey');
    expectError(unknownLang, 404, 'not_found', 'lang');
  });

  it('needs labelling:write; labelling:read reads', async () => {
    // Prepare
    const reader = await org.keyWith(['labelling:read']);
    // Act
    const put = await call('PUT', termPath('en', 'salt'), { key: reader, body: { text: 'Salt' } });
    const get = await call('GET', termPath('en', 'salt'), { key: reader });
    // Assess
    expectError(put, 403, 'permission_error');
    expect(get.status).toBe(200);
  });
});

describe('DELETE /v1/labelling/terms/{lang}/{termKey}', () => {
  it("removes the wording (the platform's shows again) and writes labelling_term.deleted; a second delete writes nothing", async () => {
    // Prepare
    await call('PUT', termPath('en', 'fat'), { key: org.live, body: { text: 'Fats' } });
    const before = await call<{ data: { id: string }[] }>('GET', '/v1/events?type=labelling_term.deleted', { session });
    // Act
    const first = await call<Term>('DELETE', termPath('en', 'fat'), { key: org.live });
    const second = await call<Term>('DELETE', termPath('en', 'fat'), { key: org.live });
    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ text: 'Fat', override: null });
    expect(second.status).toBe(200);
    const after = await call<{ data: { id: string }[] }>('GET', '/v1/events?type=labelling_term.deleted', { session });
    expect(after.body.data.length - before.body.data.length).toBe(1);
  });
});

describe('the corrections belong to the tenant', () => {
  it("an override in live shows neither in the organization's test environment nor in another organization", async () => {
    // Prepare
    const other = await newOrg('Other Winery');
    await call('PUT', termPath('it', 'protein'), { key: org.live, body: { text: 'Proteine totali' } });
    // Act
    const test = await call<Term>('GET', termPath('it', 'protein'), { key: org.test });
    const foreign = await call<{ data: Term[] }>('GET', '/v1/labelling/terms?lang=it', { key: other.live });
    // Assess
    expect(test.body.override).toBeNull();
    expect(foreign.body.data.find((t) => t.termKey === 'protein')?.override).toBeNull();
    expect(JSON.stringify(foreign.body)).not.toContain('Proteine totali');
  });
});

describe("the organization's pages", () => {
  // The allergen statement ("Contains: …") is on a page only without a list of ingredients (docs/labelling.md#no-allergen-box-beside-a-list).
  const { ingredients: _list, ...WITHOUT_LIST } = RED_WINE;

  it('show the correction on versions published after it; earlier versions keep their wording, and a removal reaches only later versions', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Spätburgunder 2022' });
    await publish(org.live, product.productId, WITHOUT_LIST);
    // Act
    await call('PUT', termPath('de', 'allergen_sulphites'), { key: org.live, body: { text: 'Schwefeldioxid und Sulfite' } });
    await publish(org.live, product.productId, WITHOUT_LIST);
    await call('DELETE', termPath('de', 'allergen_sulphites'), { key: org.live });
    await publish(org.live, product.productId, WITHOUT_LIST);
    // Assess
    const [v1, v2, v3] = await Promise.all([elabel(product.gtin, 1, 'de'), elabel(product.gtin, 2, 'de'), elabel(product.gtin, 3, 'de')]);
    expect(v1.text).toContain('Enthält: Sulfite');
    expect(v1.text).not.toContain('Schwefeldioxid');
    expect(v2.text).toContain('Enthält: Schwefeldioxid und Sulfite');
    expect(v3.text).toContain('Enthält: Sulfite');
    expect(v3.text).not.toContain('Schwefeldioxid');
    // Another language of the same version shows the platform's wording.
    expect((await elabel(product.gtin, 2, 'en')).text).toContain('Contains: sulphites');
  });

  it('show the correction on a version an import publishes (the worker reads the corrections once per chunk)', async () => {
    // Prepare
    const other = await newOrg('Import Terms Org');
    await call('PUT', termPath('de', 'allergen_sulphites'), { key: other.live, body: { text: 'Sulfite (Schwefeldioxid)' } });
    const gtin = uniqueGtin13();
    const csv = [
      'gtin,name,category,passport.productType,passport.nutrition.energyKj,passport.nutrition.fatG,passport.nutrition.saturatedFatG,passport.nutrition.carbohydratesG,passport.nutrition.sugarsG,passport.nutrition.proteinG,passport.nutrition.saltG,passport.allergens.containsSulphites',
      `${gtin},Importierter Riesling,wine,wine,318,0,0,2.6,0.6,0.1,0.01,true`,
    ].join('\n');

    // Act
    const upload = await call('POST', '/v1/imports', { key: other.live, rawBody: Buffer.from(csv), headers: { 'content-type': 'text/csv' } });
    expect(upload.status, upload.text).toBe(202);
    await eventually(
      async () => {
        const job = await call('GET', `/v1/imports/${upload.body.id}`, { key: other.live });
        return ['queued', 'running'].includes(job.body.status) ? undefined : job.body.status;
      },
      90_000,
      'the import to finish',
    );
    const page = await call('GET', `/${other.orgId}/live/p/0${gtin}/1/de`);

    // Assess
    expect(page.status).toBe(200);
    expect(page.text).toContain('Enthält: Sulfite (Schwefeldioxid)');
  });

  it("fills a corrected term's placeholders as the platform's", async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Riesling 2023' });
    await call('PUT', termPath('en', 'contains'), { key: org.live, body: { text: 'Allergens present: {list}' } });
    // Act
    await publish(org.live, product.productId, WITHOUT_LIST);
    // Assess
    const page = await elabel(product.gtin, 1, 'en');
    expect(page.text).toContain('Allergens present: sulphites');
    await call('DELETE', termPath('en', 'contains'), { key: org.live });
  });
});

describe('the corrections are stored once per tenant, within a budget (docs/labelling.md#correcting-a-term)', () => {
  /** Every key with a source in each language's texts (480: the 20 keys × 24 languages, language names among them). */
  const everySourcedTerm = (): { lang: string; key: TextKey }[] =>
    LANGUAGES.flatMap((lang) => TEXT_KEYS.filter((key) => typeof platformEntry(lang, key)?.source === 'string').map((key) => ({ lang, key })));

  /** A wine passport of at least 128 KB: the red wine with 98 ingredients given in free text in seven languages. */
  const bigWine = () => {
    const text = (lang: string, i: number) => `${lang} ingredient ${i} `.padEnd(200, 'x');
    const langs = ['en', 'de', 'fr', 'it', 'es', 'nl', 'pt'];
    const extra = Array.from({ length: 98 }, (_, i) => ({ text: Object.fromEntries(langs.map((lang) => [lang, text(lang, i)])) }));
    return { ...RED_WINE, ingredients: [...RED_WINE.ingredients, ...extra] };
  };

  it('attack: 480 full-length term overrides, then a 128 KB wine passport: publishing answers 201 (or 422 naming the budget), never 500', async () => {
    // Prepare: every sourced term corrected at full length (200 characters of three UTF-8 bytes each), placeholders kept.
    const attacker = await newOrg('Full Length Terms');
    const terms = everySourcedTerm();
    expect(terms).toHaveLength(480);
    const statuses: { status: number; param: string | undefined }[] = [];
    for (const { lang, key } of terms) {
      const kept = placeholdersOf(platformEntry(lang as Lang, key)?.text ?? '').join(' ');
      const text = `${kept}${kept ? ' ' : ''}`.padEnd(MAX_TERM_TEXT, '語');
      const response = await call<{ error?: { param?: string } }>('PUT', termPath(lang, key), { key: attacker.live, body: { text } });
      statuses.push({ status: response.status, param: response.body.error?.param });
    }
    const product = await createProduct(attacker.live, { name: 'Grand Vin Volumineux' });
    const data = bigWine();
    expect(JSON.stringify(data).length).toBeGreaterThanOrEqual(128 * 1024);

    // Act
    const published = await call('POST', '/v1/passports', { key: attacker.live, body: { productId: product.productId, data } });

    // Assess: each correction was taken or refused by name, the version published, and its page shows the corrections kept.
    expect(statuses.filter((s) => s.status !== 200 && s.status !== 422)).toEqual([]);
    expect(statuses.filter((s) => s.status === 422 && s.param !== 'text' && s.param !== 'termKey')).toEqual([]);
    expect(statuses.filter((s) => s.status === 200).length).toBeGreaterThan(0);
    expect(published.status, published.text).not.toBe(500);
    if (published.status === 422) expect(published.body.error.message).toMatch(/budget/);
    else expect(published.status, published.text).toBe(201);
    const page = await call('GET', `/${attacker.orgId}/live/p/0${product.gtin}/1/bg`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(''.padEnd(MAX_TERM_TEXT, '語'));
  }, 120_000);

  it('attack: a correction that takes the total just over the budget is refused (422 naming text) and stores nothing; a replacement counts only its difference', async () => {
    // Prepare: corrections of exactly MAX_TERM_OVERRIDES_BYTES bytes in all.
    const filler = await newOrg('Budget Filler');
    const plain = everySourcedTerm().filter(({ lang, key }) => key !== 'languageName' && placeholdersOf(platformEntry(lang as Lang, key)?.text ?? '').length === 0);
    const longest = ''.padEnd(MAX_TERM_TEXT, '語'); // 200 characters of three UTF-8 bytes each
    const full = Math.floor(MAX_TERM_OVERRIDES_BYTES / Buffer.byteLength(longest));
    const rest = MAX_TERM_OVERRIDES_BYTES - full * Buffer.byteLength(longest);
    const fills = plain.slice(0, full + 1).map((term, i) => ({ ...term, text: i < full ? longest : 'x'.repeat(rest) }));
    for (const { lang, key, text } of fills) {
      const response = await call('PUT', termPath(lang, key), { key: filler.live, body: { text } });
      expect(response.status, response.text).toBe(200);
    }
    const next = plain[full + 1]!;

    // Act
    const over = await call('PUT', termPath(next.lang, next.key), { key: filler.live, body: { text: 'z' } });
    const replaced = await call('PUT', termPath(fills[0]!.lang, fills[0]!.key), { key: filler.live, body: { text: ''.padEnd(MAX_TERM_TEXT, '詞') } });

    // Assess
    expectError(over, 422, 'validation_error', 'text');
    expect(over.body.error.message).toMatch(/budget/);
    expect((await call<Term>('GET', termPath(next.lang, next.key), { key: filler.live })).body.override).toBeNull();
    expect(replaced.status, replaced.text).toBe(200);
  }, 120_000);
});
