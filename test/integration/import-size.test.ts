import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { call, expectError, newOrg } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { eventually } from '../support/queues.ts';

/**
 * Import chunks sized by bytes as well as rows (docs/imports.md, docs/import-export.md): a file
 * the dry run accepts imports whole, and a row too large to be stored on its own is refused on
 * upload and in the dry run alike, naming the row.
 */

interface ImportJob {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  dryRun: boolean;
  counts: { rows: number; created: number; updated: number; unchanged: number; failed: number };
  errors: { row: number; column: string; message: string }[];
}

/** Free text of `length` characters, different for each seed (so that no two ingredients are equal). */
const text = (seed: string, length: number): string => `${seed} `.padEnd(length, 'abcdefghij klmnopqrst uvwxyz ').slice(0, length - 1).trimEnd() + 'x';

/** 100 ingredients, each translated text in `languages` languages of about `length` characters, as one ingredients cell. */
function ingredientsCell(row: number, languages: readonly string[], length: number): string {
  return Array.from({ length: 100 }, (_, i) => JSON.stringify({ text: Object.fromEntries(languages.map((lang) => [lang, text(`${lang} ${row}.${i}`, length)])) })).join('|');
}

/** A wine's full nutrition declaration, which publishing requires (docs/labelling.md#the-nutrition-declaration). */
const DECLARATION: Record<string, string> = { energyKj: '318', energyKcal: '76', fatG: '0', saturatedFatG: '0', carbohydratesG: '2.6', sugarsG: '0.6', proteinG: '0.1', saltG: '0.01', alcoholG: '9.5' };
const HEADERS = ['gtin', 'name', 'category', 'passport.productType', 'passport.colour', 'passport.ingredients', ...Object.keys(DECLARATION).map((f) => `passport.nutrition.${f}`)];
/** The rows under HEADERS, each with the declaration appended. */
const csvOf = (rows: string[][]): Buffer =>
  Buffer.from(stringify([HEADERS, ...rows.map((row) => [...row, ...Object.values(DECLARATION)])], { record_delimiter: 'windows' }), 'utf8');

const upload = (key: string, file: Buffer, dryRun = false) =>
  call<ImportJob>('POST', `/v1/imports${dryRun ? '?dryRun=true' : ''}`, { key, rawBody: file, headers: { 'content-type': 'text/csv' } });

/** The 24 languages an ingredient's text may be given in (docs/api.md#passport-data). */
const LANGUAGES = ['bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fi', 'fr', 'ga', 'hr', 'hu', 'it', 'lt', 'lv', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'sl', 'sv'];

describe('import chunk size', () => {
  it('attack: a 20-row, 0.7 MB CSV of 100-ingredient passports that the dry run accepts imports whole', { timeout: 180_000 }, async () => {
    // Prepare: 20 wines, each with 100 ingredients in German and English (about 36 KB a row)
    const org = await newOrg('Import Size Winery');
    const gtins = Array.from({ length: 20 }, () => uniqueGtin13());
    const file = csvOf(gtins.map((gtin, i) => [gtin, `Big label wine ${i + 1}`, 'wine', 'wine', 'red', ingredientsCell(i, ['de', 'en'], 170)]));
    expect(file.length).toBeGreaterThan(650_000);
    expect(file.length).toBeLessThan(800_000);
    const dryRun = await upload(org.live, file, true);
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(dryRun.body).toMatchObject({ status: 'succeeded', dryRun: true, counts: { rows: 20, created: 20, failed: 0 } });

    // Act
    const started = await upload(org.live, file);
    expect(started.status, started.text.slice(0, 500)).toBe(202);
    const job = await eventually(
      async () => {
        const read = await call<ImportJob>('GET', `/v1/imports/${started.body.id}`, { key: org.live });
        expect(read.status, read.text).toBe(200);
        return read.body.status === 'queued' || read.body.status === 'running' ? undefined : read.body;
      },
      120_000,
      `import ${started.body.id} to finish`,
    );

    // Assess: every product, each with its passport of 100 ingredients
    expect(job).toMatchObject({ status: 'succeeded', counts: { rows: 20, created: 20, updated: 0, unchanged: 0, failed: 0 }, errors: [] });
    const list = await call<{ data: { productId: string; gtin: string; name: string }[] }>('GET', '/v1/products?limit=100', { key: org.live });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((p) => p.gtin).sort()).toEqual(gtins.map((g) => g.padStart(14, '0')).sort());
    for (const product of list.body.data) {
      const history = await call<{ data: { version: number; data: { ingredients: unknown[] } }[] }>('GET', `/v1/products/${product.productId}/passports?limit=10`, { key: org.live });
      expect(history.status, history.text.slice(0, 300)).toBe(200);
      expect(history.body.data).toHaveLength(1);
      expect(history.body.data[0]?.data.ingredients).toHaveLength(100);
    }
  });

  it('attack: a row too large to store on its own is refused with 422 naming the row, in the dry run too, and nothing is written', { timeout: 60_000 }, async () => {
    // Prepare: row 2 is an ordinary wine; row 3 has 100 ingredients, each in all 24 languages at 200 characters (valid, but about 0.5 MB)
    const org = await newOrg('Import Huge Row Winery');
    const file = csvOf([
      [uniqueGtin13(), 'Ordinary wine', 'wine', 'wine', 'white', 'Grapes|code:tartaric-acid'],
      [uniqueGtin13(), 'Encyclopaedic label', 'wine', 'wine', 'red', ingredientsCell(3, LANGUAGES, 200)],
    ]);
    expect(file.length).toBeGreaterThan(450_000);

    // Act
    const dryRun = await upload(org.live, file, true);
    const real = await upload(org.live, file);

    // Assess: both refuse the file naming row 3; no job and no product exists
    for (const response of [dryRun, real]) {
      const error = expectError(response, 422, 'validation_error', 'row 3');
      expect(String(error.message)).toMatch(/^Row 3 /);
    }
    const jobs = await call<{ data: unknown[] }>('GET', '/v1/imports', { key: org.live });
    expect(jobs.status, jobs.text).toBe(200);
    expect(jobs.body.data).toEqual([]);
    const products = await call<{ data: unknown[] }>('GET', '/v1/products', { key: org.live });
    expect(products.status, products.text).toBe(200);
    expect(products.body.data).toEqual([]);
  });
});
