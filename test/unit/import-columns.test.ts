import { describe, expect, it } from 'vitest';
import {
  checkHeaders,
  columnOf,
  headersOf,
  IMPORT_COLUMNS,
  IMPORT_HEADERS,
  inputToRow,
  neutraliseCell,
  neutraliseRow,
  restoreCell,
  rowToInput,
} from '../../lib/domain/import-columns.ts';
import { passportDataSchema, type PassportData } from '../../lib/domain/passport.ts';
import { createProductSchema } from '../../lib/domain/product.ts';

const product = {
  gtin: '04006381333931',
  name: 'Riesling Kabinett 2023',
  category: 'wine',
  brand: 'Weingut Beispiel',
  sku: 'RK-2023-075',
  economicOperatorId: 'DE123456789012345',
  facilityId: '4006381000017',
  commodityCode: '22042111',
  granularity: 'batch',
};

const passport: PassportData = {
  productType: 'wine',
  colour: 'white',
  vintage: 2023,
  ingredients: ['grapes', 'sulphites', 'E220'],
  nutrition: { energyKj: 318, sugarsG: 0.6, alcoholG: 9.5, fatG: 0, saltG: 0.000001 },
  allergens: { containsSulphites: true, containsMilk: false },
  origin: { country: 'DE', region: 'Mosel' },
  producers: [
    { name: 'Weingut Beispiel', role: 'producer', country: 'DE' },
    { name: 'Kellerei Zwei', role: 'bottler' },
    { name: 'Import GmbH', role: 'importer', country: 'AT' },
    { name: 'Vierter Händler', role: 'distributor', country: 'FR' },
  ],
};

describe('the import columns', () => {
  it('round-trips a product and its passport through a row', () => {
    // Prepare
    const row = inputToRow(product, passport);

    // Act
    const back = rowToInput(row);

    // Assess
    expect(back.errors).toEqual([]);
    expect(back.product).toEqual(product);
    expect(back.passport).toEqual(passport);
  });

  it('writes every template header, in template order, with the extra producer after them', () => {
    // Act
    const row = inputToRow(product, passport);

    // Assess
    expect(headersOf([row])).toEqual([
      ...IMPORT_HEADERS,
      'passport.producers.4.name',
      'passport.producers.4.role',
      'passport.producers.4.country',
    ]);
    expect(row['passport.producers.2.country']).toBe('');
    expect(row['passport.ingredients']).toBe('grapes|sulphites|E220');
  });

  it('round-trips a product without a passport as a row with no passport cell filled', () => {
    // Prepare
    const bare = { gtin: '04006381333931', name: 'Plain', category: 'food' };

    // Act
    const row = inputToRow(bare, undefined);
    const back = rowToInput(row);

    // Assess
    expect(Object.entries(row).filter(([h, v]) => h.startsWith('passport.') && v !== '')).toEqual([]);
    expect(back).toEqual({ product: bare, passport: undefined, errors: [] });
  });

  it('splits ingredients on | and drops empty entries and surrounding space', () => {
    // Act
    const { passport: data } = rowToInput({ gtin: '4006381333931', 'passport.ingredients': ' grapes | |E220|  sulphites ' });

    // Assess
    expect(data?.ingredients).toEqual(['grapes', 'E220', 'sulphites']);
  });

  it('treats empty and blank cells as absent fields', () => {
    // Act
    const { product: fields, passport: data, errors } = rowToInput({
      gtin: '4006381333931',
      name: 'Riesling',
      brand: '',
      sku: '   ',
      'passport.vintage': '',
      'passport.nutrition.fatG': ' ',
    });

    // Assess
    expect(fields).toEqual({ gtin: '4006381333931', name: 'Riesling' });
    expect(data).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('reads a decimal comma, yes/no flags, and reports a non-number and a non-flag by their column', () => {
    // Act
    const { passport: data, errors } = rowToInput({
      'passport.nutrition.sugarsG': '0,6',
      'passport.allergens.containsEgg': 'YES',
      'passport.nutrition.fatG': 'a little',
      'passport.allergens.containsMilk': 'maybe',
    });

    // Assess
    expect(data?.nutrition?.sugarsG).toBe(0.6);
    expect(data?.allergens?.containsEgg).toBe(true);
    expect(errors.map((e) => e.column)).toEqual(['passport.nutrition.fatG', 'passport.allergens.containsMilk']);
    expect(errors[0]?.message).toContain('a little');
  });

  it('reports an unknown header as an error naming the header as written, with the column it probably means', () => {
    // Act
    const { errors } = rowToInput({ gtin: '4006381333931', GTIN: '4006381333931', 'passport.flavour': 'dry' });

    // Assess
    expect(errors).toEqual([
      { column: 'GTIN', message: expect.stringContaining('"GTIN"') },
      { column: 'passport.flavour', message: expect.stringContaining('"passport.flavour"') },
    ]);
    expect(errors[0]?.message).toContain('did you mean "gtin"');
  });

  it('checks a header row: unknown, duplicate and out-of-range producer headers are errors; a BOM is ignored', () => {
    // Act
    const errors = checkHeaders(['\uFEFFgtin', 'name', 'name', 'colour', 'passport.producers.21.name', 'passport.producers.7.role']);

    // Assess
    expect(errors.map((e) => e.column)).toEqual(['name', 'colour', 'passport.producers.21.name']);
  });

  it('reports a gap in the producers naming the column after the gap', () => {
    // Act
    const { errors } = rowToInput({ 'passport.producers.1.name': 'A', 'passport.producers.3.name': 'C' });

    // Assess
    expect(errors).toEqual([{ column: 'passport.producers.3', message: expect.stringContaining('passport.producers.2') }]);
  });

  it('maps the paths of validation issues back to their columns', () => {
    // Prepare
    const { product: fields, passport: data } = rowToInput({
      gtin: '4006381333932',
      name: 'X',
      category: 'wine',
      facilityId: '4006381000016',
      commodityCode: '2204',
      'passport.vintage': '1700',
      'passport.ingredients': 'grapes|' + 'x'.repeat(201),
      'passport.producers.1.name': 'A',
      'passport.producers.2.role': 'brewer',
    });

    // Act
    const productIssues = createProductSchema.safeParse(fields).error?.issues ?? [];
    const passportIssues = passportDataSchema.safeParse(data).error?.issues ?? [];
    const columns = [...productIssues.map((i) => columnOf(i.path)), ...passportIssues.map((i) => columnOf(['passport', ...i.path]))];

    // Assess
    expect(columns.sort()).toEqual(
      ['commodityCode', 'facilityId', 'gtin', 'passport.vintage', 'passport.ingredients', 'passport.producers.2.name', 'passport.producers.2.role'].sort(),
    );
  });

  it('gives every column an example and a description, and the example row validates', () => {
    // Prepare
    const example = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c.header, c.example]));

    // Act
    const { product: fields, passport: data, errors } = rowToInput(example);

    // Assess
    expect(IMPORT_COLUMNS.every((c) => c.describe.length > 0)).toBe(true);
    expect(new Set(IMPORT_HEADERS).size).toBe(IMPORT_HEADERS.length);
    expect(errors).toEqual([]);
    expect(createProductSchema.safeParse(fields).error).toBeUndefined();
    expect(passportDataSchema.safeParse(data).error).toBeUndefined();
  });
});

describe('docs/import-export.md', () => {
  it('lists every column of the template in its table, in template order', async () => {
    // Prepare
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/import-export.md', import.meta.url), 'utf8');

    // Act
    const listed = [...doc.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);

    // Assess
    expect(listed).toEqual(IMPORT_HEADERS);
  });
});

describe('formula neutralisation (docs/import-export.md#export)', () => {
  const HOSTILE = ['=HYPERLINK("http://evil.example","x")', '+1', '-x', '@SUM(1+1)', '\tfoo', '\rbar', "'=already", "''+twice"];

  it('prefixes one quote to a cell that starts with a formula character, after any quotes', () => {
    // Act
    const written = HOSTILE.map(neutraliseCell);

    // Assess
    expect(written).toEqual(HOSTILE.map((cell) => `'${cell}`));
    expect(['plain', "'tis", ' =spaced', ''].map(neutraliseCell)).toEqual(['plain', "'tis", ' =spaced', '']);
  });

  it('removes exactly one quote on import, so every value survives the round trip', () => {
    // Act
    const back = [...HOSTILE, 'plain', "'tis", "'", ''].map((cell) => restoreCell(neutraliseCell(cell)));

    // Assess
    expect(back).toEqual([...HOSTILE, 'plain', "'tis", "'", '']);
    expect(restoreCell("'tis")).toBe("'tis");
  });

  it('leaves numeric columns as numbers: a row is neutralised in its text cells only', () => {
    // Act
    const row = neutraliseRow({ name: '-x', 'passport.vintage': '-5', 'passport.nutrition.fatG': '+1', 'passport.origin.region': '-5' });

    // Assess
    expect(row).toEqual({ name: "'-x", 'passport.vintage': '-5', 'passport.nutrition.fatG': '+1', 'passport.origin.region': "'-5" });
  });
});

describe('the wine label fields of issue 25 in the template', () => {
  it('reads alcoholByVolume, the negligible nutrients, the protective atmosphere and a substitutable entry, and writes them back to the same cells', () => {
    // Prepare
    const row = {
      'passport.productType': 'wine',
      'passport.alcoholByVolume': '12,5',
      'passport.ingredients': 'code:grapes|{"code":"tartaric-acid","substitutable":true}|{"code":"malic-acid","substitutable":true}',
      'passport.protectiveAtmosphere': 'may-be-bottled',
      'passport.nutrition.negligible': 'fat | saturates|salt',
    };

    // Act
    const input = rowToInput(row);
    const parsed = passportDataSchema.safeParse(input.passport);
    const written = inputToRow({}, input.passport);

    // Assess
    expect(input.errors).toEqual([]);
    expect(parsed.success).toBe(true);
    expect(input.passport).toEqual({
      productType: 'wine',
      alcoholByVolume: 12.5,
      ingredients: [{ code: 'grapes' }, { code: 'tartaric-acid', substitutable: true }, { code: 'malic-acid', substitutable: true }],
      protectiveAtmosphere: 'may-be-bottled',
      nutrition: { negligible: ['fat', 'saturates', 'salt'] },
    });
    expect(written['passport.alcoholByVolume']).toBe('12.5');
    expect(written['passport.nutrition.negligible']).toBe('fat|saturates|salt');
    expect(written['passport.protectiveAtmosphere']).toBe('may-be-bottled');
    expect(written['passport.ingredients']).toBe(row['passport.ingredients']);
    expect(Object.keys(written).filter((header) => !IMPORT_HEADERS.includes(header))).toEqual([]);
  });

  it('names the column of a bad strength', () => {
    // Act
    const input = rowToInput({ 'passport.alcoholByVolume': 'strong' });
    // Assess
    expect(input.errors).toEqual([{ column: 'passport.alcoholByVolume', message: expect.stringContaining('must be a number') }]);
  });
});
