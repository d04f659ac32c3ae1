/**
 * The columns of the import template and the product export (docs/import-export.md), in template
 * order, and the pure mapping between one spreadsheet row and a product with its passport data.
 *
 * This module imports no npm package (the dashboard may take its values, docs/architecture.md#layers)
 * and validates nothing beyond turning cells into values: the service layer validates the result
 * with the zod schemas of product.ts and passport.ts and names the column of each issue with
 * `columnOf`.
 *
 * Rules of a row:
 * - an empty cell (or one of white space only) is an absent field;
 * - product fields are top-level headers (`gtin`, `name`, …); passport fields are flattened with
 *   dots under `passport.` (`passport.vintage`, `passport.nutrition.energyKj`);
 * - `passport.ingredients` lists ingredients separated by `|` (an ingredient cannot itself contain
 *   `|`): `code:{code}` is an entry of the ingredient vocabulary, a JSON object (`{"text":{…}}`)
 *   free text with its translations, anything else free text; the export writes them the same way,
 *   so that an exported row imports back to the same ingredients;
 * - producers are numbered from 1: `passport.producers.1.name`, `passport.producers.1.role`, …;
 *   the template shows three, a row may use up to 20;
 * - numbers take a dot or a single comma as decimal separator (`12.5`, `12,5`); allergen flags
 *   are `true`/`false` (also `yes`/`no`, `1`/`0`, any letter case);
 * - a row with no `passport.*` cell filled carries no passport.
 */
import { ALLERGEN_FIELDS, CATEGORIES, NUTRITION_FIELDS, PROTECTIVE_ATMOSPHERES, SUPPLIER_ROLES, WINE_COLOURS } from './enums.ts';
import { NEGLIGIBLE_NUTRIENTS } from './nutrition.ts';
import type { PassportData } from './passport.ts';

/**
 * Formula neutralisation (docs/import-export.md#export, docs/security.md): a spreadsheet reads a
 * cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula. The CSV
 * export writes such a text cell with one `'` before it (and quoted), which a spreadsheet shows as
 * text; a cell that already starts with `'`s followed by one of those characters gets one more, so
 * that the import can always remove exactly one: it removes one `'` from a cell that starts with
 * one or more `'` followed by one of them, and from no other cell. Numeric columns are written
 * from numbers and are not text: they are never prefixed.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED_START = /^'+[=+\-@\t\r]/;

/** A text cell as the CSV export writes it: with one `'` more before a formula start. */
export const neutraliseCell = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** A cell as a spreadsheet file brings it back: one neutralising `'` removed (the inverse of neutraliseCell). */
export const restoreCell = (cell: string): string => (NEUTRALISED_START.test(cell) ? cell.slice(1) : cell);

/** Whether a cell of the export is neutralised, i.e. must be quoted: it starts with `'`s and a formula start. */
export const isNeutralisedCell = (cell: string): boolean => NEUTRALISED_START.test(cell);

/** Whether a column holds numbers (written from numbers, so never a formula): vintage and nutrition. */
export const isNumericColumn = (header: string): boolean => header === 'passport.vintage' || header.startsWith('passport.nutrition.');

/** A row of the export with its text cells neutralised (numeric columns as they are). */
export const neutraliseRow = (row: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(row).map(([header, cell]) => [header, isNumericColumn(header) ? cell : neutraliseCell(cell)]));

/** A row of a CSV or workbook upload with each cell restored (restoreCell). */
export const restoreCells = (cells: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(cells).map(([header, cell]) => [header, typeof cell === 'string' ? restoreCell(cell) : cell]));

/** A cell quoted in an error message: at most 40 characters of it, so that a message stays short. */
const quoted = (cell: string): string => JSON.stringify(cell.length > 40 ? `${cell.slice(0, 40)}…` : cell);

/** How a cell names an entry of the ingredient vocabulary: `code:tartaric-acid`. */
const CODE_PREFIX = 'code:';

/**
 * One ingredient (docs/api.md#passport-data) as a part of the ingredients cell: free text as
 * written, a vocabulary entry as `code:{code}`, text with its translations as its JSON object.
 */
export function ingredientCell(ingredient: unknown): string {
  if (ingredient !== null && typeof ingredient === 'object' && !Array.isArray(ingredient)) {
    const code = (ingredient as { code?: unknown }).code;
    // code:… only for a bare code; with other fields (substitutable) the JSON object keeps them.
    return typeof code === 'string' && Object.keys(ingredient).length === 1 ? `${CODE_PREFIX}${code}` : JSON.stringify(ingredient);
  }
  return ingredient === undefined || ingredient === null ? '' : String(ingredient);
}

/** The ingredient a part of the cell names (the reverse of ingredientCell); the passport schema validates it. */
function ingredientOf(part: string): unknown {
  if (part.startsWith(CODE_PREFIX)) return { code: part.slice(CODE_PREFIX.length).trim() };
  if (part.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(part);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: free text that starts with a brace
    }
  }
  return part;
}

export interface ImportColumn {
  /** The header as the template writes it, e.g. `gtin` or `passport.nutrition.energyKj`. */
  header: string;
  /** The column in people's words, as row errors and the dashboard name it: `Country of origin`. */
  label: string;
  /** The template's example value (its second row). */
  example: string;
  /** One sentence for the docs and the dashboard. */
  describe: string;
}

/** Granularity of a product's passport (ESPR): one per model, per batch or per item. */
export const PRODUCT_GRANULARITIES = ['model', 'batch', 'item'] as const;
export type ProductGranularity = (typeof PRODUCT_GRANULARITIES)[number];

/** The product fields a row carries, as the cells' text (validated later by the product schema). */
export const PRODUCT_COLUMNS = [
  'gtin',
  'name',
  'category',
  'brand',
  'sku',
  'economicOperatorId',
  'facilityId',
  'commodityCode',
  'granularity',
] as const;
export type ProductColumn = (typeof PRODUCT_COLUMNS)[number];
export type ImportProductFields = Partial<Record<ProductColumn, string>>;

/** Producers the template shows; a row may number up to MAX_PRODUCERS. */
export const TEMPLATE_PRODUCERS = 3;
export const MAX_PRODUCERS = 20;
const PRODUCER_FIELDS = ['name', 'role', 'country'] as const;
const producerLabel = (n: number, field: (typeof PRODUCER_FIELDS)[number]): string => `Producer ${n}: ${PRODUCER_LABELS[field]}`;

/**
 * The template's example GTIN: GS1 keeps the GS1 prefix 952 for examples and demonstrations, so no
 * real product carries it (docs/imports.md#the-example-row). An import refuses every GTIN-13 of that
 * prefix (isExampleGtin), so a template row left in a file never becomes a product.
 */
export const EXAMPLE_GTIN = '9520123456788';

/** Whether a GTIN-14 is one of GS1's example numbers: a GTIN-13 of the GS1 prefix 952 (any indicator digit). */
export const isExampleGtin = (gtin14: string): boolean => /^\d{14}$/.test(gtin14) && gtin14.slice(1, 4) === '952';

const NUTRITION_LABELS: Record<(typeof NUTRITION_FIELDS)[number], string> = {
  energyKj: 'Energy (kJ)',
  energyKcal: 'Energy (kcal)',
  fatG: 'Fat (g)',
  saturatedFatG: 'Saturated fat (g)',
  carbohydratesG: 'Carbohydrate (g)',
  sugarsG: 'Sugars (g)',
  proteinG: 'Protein (g)',
  saltG: 'Salt (g)',
  alcoholG: 'Alcohol (g)',
};

const ALLERGEN_LABELS: Record<(typeof ALLERGEN_FIELDS)[number], string> = {
  containsSulphites: 'Contains sulphites',
  containsEgg: 'Contains egg',
  containsFish: 'Contains fish',
  containsMilk: 'Contains milk',
};

const PRODUCER_LABELS: Record<(typeof PRODUCER_FIELDS)[number], string> = { name: 'name', role: 'role', country: 'country' };

const NUTRITION_EXAMPLES: Record<(typeof NUTRITION_FIELDS)[number], string> = {
  energyKj: '318',
  energyKcal: '76',
  fatG: '0',
  saturatedFatG: '0',
  carbohydratesG: '2.6',
  sugarsG: '0.6',
  proteinG: '0.1',
  saltG: '0.01',
  alcoholG: '9.5',
};

const productColumns: ImportColumn[] = [
  { header: 'gtin', label: 'GTIN', example: EXAMPLE_GTIN, describe: "GTIN-8, -12, -13 or -14 with its check digit; the key of the row: a known GTIN updates its product. The template's example (GS1 prefix 952, kept for examples) is refused: replace the example row." },
  { header: 'name', label: 'Name', example: 'Riesling Kabinett 2023', describe: 'Product name (required for a new product), at most 200 characters.' },
  { header: 'category', label: 'Category', example: 'wine', describe: `Product category (required for a new product): ${CATEGORIES.join(', ')}.` },
  { header: 'brand', label: 'Brand', example: 'Weingut Beispiel', describe: 'Brand, at most 100 characters.' },
  { header: 'sku', label: 'SKU', example: 'RK-2023-075', describe: 'Your stock-keeping unit, at most 64 characters.' },
  { header: 'economicOperatorId', label: 'Economic operator id', example: 'DE123456789012345', describe: 'Economic operator identifier, such as an EORI number: two-letter country code and up to 15 letters or digits.' },
  { header: 'facilityId', label: 'Facility GLN', example: '4006381000017', describe: 'Facility identifier: a GLN, 13 digits with its GS1 check digit.' },
  { header: 'commodityCode', label: 'Commodity code', example: '22042111', describe: 'CN or HS commodity code: 6 to 10 digits.' },
  { header: 'granularity', label: 'Passport granularity', example: 'model', describe: `What one passport covers: ${PRODUCT_GRANULARITIES.join(', ')} (model when empty).` },
];

const passportColumns: ImportColumn[] = [
  { header: 'passport.productType', label: 'Product type', example: 'wine', describe: `Passport product type: ${CATEGORIES.join(', ')}.` },
  { header: 'passport.colour', label: 'Wine colour', example: 'white', describe: `Wine colour: ${WINE_COLOURS.join(', ')}.` },
  { header: 'passport.vintage', label: 'Vintage', example: '2023', describe: 'Harvest year: 1800 to next year.' },
  { header: 'passport.alcoholByVolume', label: 'Alcohol (% vol)', example: '12.5', describe: 'Actual alcoholic strength, % vol, at most one decimal place.' },
  { header: 'passport.ingredients', label: 'Ingredients', example: 'Grapes|code:tartaric-acid|sulphites', describe: 'Ingredients separated by |: text, code:{code} for an entry of GET /v1/vocabulary/ingredients, or {"text":{…}} for text with translations (a vocabulary entry with "substitutable": true as its JSON object).' },
  { header: 'passport.protectiveAtmosphere', label: 'Protective atmosphere', example: '', describe: `Wine bottled in a protective atmosphere: ${PROTECTIVE_ATMOSPHERES.join(' or ')} (replaces the packaging gases in the list of ingredients).` },
  ...NUTRITION_FIELDS.map((field) => ({
    header: `passport.nutrition.${field}`,
    label: NUTRITION_LABELS[field],
    example: NUTRITION_EXAMPLES[field],
    describe: `Nutrition per 100 ml or 100 g: ${field}, a number 0 or more.`,
  })),
  {
    header: 'passport.nutrition.negligible',
    label: 'Negligible nutrients',
    example: '',
    describe: `Nutrients present in negligible amounts, separated by |: ${NEGLIGIBLE_NUTRIENTS.join(', ')} ("Contains negligible amounts of …").`,
  },
  ...ALLERGEN_FIELDS.map((field) => ({
    header: `passport.allergens.${field}`,
    label: ALLERGEN_LABELS[field],
    example: field === 'containsSulphites' ? 'true' : 'false',
    describe: `Allergen flag ${field}: true or false.`,
  })),
  { header: 'passport.origin.country', label: 'Country of origin', example: 'DE', describe: 'Country of origin: ISO 3166-1 alpha-2 code in upper case.' },
  { header: 'passport.origin.region', label: 'Region of origin', example: 'Mosel', describe: 'Region of origin, at most 200 characters.' },
  { header: 'passport.origin.designation', label: 'Protected designation', example: 'Mosel PDO', describe: 'Protected designation, at most 200 characters.' },
  { header: 'passport.labelLanguage', label: 'Label language', example: 'de', describe: "The e-label's language when the reader's are none of the 24 EU languages: a code such as de." },
  ...Array.from({ length: TEMPLATE_PRODUCERS }, (_, i) => i + 1).flatMap((n) =>
    PRODUCER_FIELDS.map((field) => ({
      header: `passport.producers.${n}.${field}`,
      label: producerLabel(n, field),
      example: n === 1 ? { name: 'Weingut Beispiel', role: 'producer', country: 'DE' }[field] : '',
      describe: {
        name: `Producer ${n}: name (required when the producer has any field).`,
        role: `Producer ${n}: role, ${SUPPLIER_ROLES.join(', ')} (producer when empty).`,
        country: `Producer ${n}: ISO 3166-1 alpha-2 country code.`,
      }[field],
    })),
  ),
];

/** Every column of the template, in template order. */
export const IMPORT_COLUMNS: readonly ImportColumn[] = [...productColumns, ...passportColumns];

/** The template's headers, in order. */
export const IMPORT_HEADERS: readonly string[] = IMPORT_COLUMNS.map((column) => column.header);

const labels = new Map(IMPORT_COLUMNS.map((column) => [column.header, column.label]));

/**
 * A column in people's words (the template's label): `passport.origin.country` is `Country of
 * origin`, `passport.producers.4.role` is `Producer 4: role`; a header that is no column stays as
 * written, and the row as a whole (`""`) has no label.
 */
export function columnLabel(written: string): string {
  const header = canonicalHeader(written);
  if (header === undefined) return written;
  const producer = PRODUCER_HEADER.exec(header);
  if (producer) return producerLabel(Number(producer[1]), producer[2] as (typeof PRODUCER_FIELDS)[number]);
  return labels.get(header) ?? written;
}

/**
 * A row error's message in people's words: a message that starts with the column's API name
 * (`passport.vintage must be…`, or its last part, `country must be…`) starts with the column's
 * label instead (`Country of origin must be…`). Other messages are kept.
 */
export function inPeoplesWords(written: string, message: string): string {
  const header = canonicalHeader(written);
  if (header === undefined) return message;
  const label = columnLabel(header);
  for (const name of [written.trim(), header, header.split('.').at(-1) ?? header]) {
    if (message.startsWith(`${name} `)) return `${label}${message.slice(name.length)}`;
  }
  return message;
}

export interface CellError {
  /** The header of the column, as written in the file. */
  column: string;
  message: string;
}

export interface RowInput {
  product: ImportProductFields;
  passport: PassportData | undefined;
  errors: CellError[];
}

const PRODUCER_HEADER = /^passport\.producers\.(\d+)\.(name|role|country)$/;
const NUMBER = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;
const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

const known = new Set(IMPORT_HEADERS);

/** The canonical header a written header stands for (surrounding space and a byte-order mark ignored), or undefined. */
export function canonicalHeader(written: string): string | undefined {
  const header = written.replace(/^\uFEFF/, '').trim();
  if (known.has(header)) return header;
  const producer = PRODUCER_HEADER.exec(header);
  if (producer) {
    const n = Number(producer[1]);
    if (String(n) === producer[1] && n >= 1 && n <= MAX_PRODUCERS) return header;
  }
  return undefined;
}

/** Why a header is not a column, naming it (and the column it probably means). */
export function unknownHeaderMessage(written: string): string {
  const lower = written.trim().toLowerCase();
  const near = IMPORT_HEADERS.find((header) => header.toLowerCase() === lower);
  const producer = PRODUCER_HEADER.exec(written.trim());
  if (producer) return `Unknown column "${written}": producers are numbered 1 to ${MAX_PRODUCERS}.`;
  return `Unknown column "${written}"${near ? `: did you mean "${near}"?` : ''}. The columns are those of the template (docs/import-export.md).`;
}

/** The headers of a file that are not columns, each as an error naming it. */
export function checkHeaders(headers: readonly string[]): CellError[] {
  const errors: CellError[] = [];
  const seen = new Set<string>();
  for (const written of headers) {
    const header = canonicalHeader(written);
    if (header === undefined) {
      if (written.trim() !== '') errors.push({ column: written, message: unknownHeaderMessage(written) });
      continue;
    }
    if (seen.has(header)) errors.push({ column: written, message: `Column "${written}" appears twice.` });
    seen.add(header);
  }
  return errors;
}

function parseNumber(cell: string): number | undefined {
  if (!NUMBER.test(cell)) return undefined;
  if ((cell.match(/,/g) ?? []).length > 1) return undefined;
  const value = Number(cell.replace(',', '.'));
  return Number.isFinite(value) ? value : undefined;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

/**
 * One row (header as written → cell text) to a product's fields and its passport data. Pure: the
 * values are not validated beyond their type (number, flag, list); the caller validates them with
 * the zod schemas and names columns with `columnOf`. Unknown headers give an error each.
 */
export function rowToInput(row: Readonly<Record<string, string>>): RowInput {
  const product: ImportProductFields = {};
  const passport: Record<string, unknown> = {};
  const producers: Record<string, string>[] = [];
  const producerHeader: string[] = [];
  const errors: CellError[] = [];
  let hasPassport = false;

  for (const [written, raw] of Object.entries(row)) {
    const header = canonicalHeader(written);
    const cell = typeof raw === 'string' ? raw.trim() : raw === undefined || raw === null ? '' : String(raw).trim();
    if (header === undefined) {
      if (written.trim() !== '') errors.push({ column: written, message: unknownHeaderMessage(written) });
      continue;
    }
    if (cell === '') continue;
    if (!header.startsWith('passport.')) {
      product[header as ProductColumn] = cell;
      continue;
    }
    hasPassport = true;
    const path = header.split('.').slice(1);
    const producer = PRODUCER_HEADER.exec(header);
    if (producer) {
      const index = Number(producer[1]) - 1;
      producers[index] ??= {};
      producers[index][producer[2]!] = cell;
      producerHeader[index] = written.slice(0, written.lastIndexOf('.'));
      continue;
    }
    if (path[0] === 'ingredients') {
      passport.ingredients = cell
        .split('|')
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .map(ingredientOf);
    } else if (header === 'passport.nutrition.negligible') {
      setPath(passport, path, cell.split('|').map((part) => part.trim()).filter((part) => part !== ''));
    } else if (path[0] === 'vintage' || path[0] === 'nutrition' || path[0] === 'alcoholByVolume') {
      const value = parseNumber(cell);
      if (value === undefined) errors.push({ column: written, message: `${header} must be a number, such as 12.5; found ${quoted(cell)}.` });
      else setPath(passport, path, value);
    } else if (path[0] === 'allergens') {
      const word = cell.toLowerCase();
      if (TRUE_WORDS.has(word)) setPath(passport, path, true);
      else if (FALSE_WORDS.has(word)) setPath(passport, path, false);
      else errors.push({ column: written, message: `${header} must be true or false; found ${quoted(cell)}.` });
    } else {
      setPath(passport, path, cell);
    }
  }

  if (producers.length > 0) {
    const list: Record<string, string>[] = [];
    for (let i = 0; i < producers.length; i++) {
      const entry = producers[i];
      if (entry === undefined) {
        const next = producerHeader.find((h, j) => j > i && h !== undefined) ?? `passport.producers.${i + 2}`;
        errors.push({ column: next, message: `Fill passport.producers.${i + 1} before ${next}: producers are numbered without gaps.` });
        break;
      }
      list.push(entry);
    }
    passport.producers = list;
  }

  return { product, passport: hasPassport ? (passport as PassportData) : undefined, errors };
}

const cellOf = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && !Array.isArray(value)) return ingredientCell(value); // an ingredient object
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
};

function flatten(prefix: string, value: unknown, out: Record<string, string>): void {
  if (value === undefined || value === null) return;
  if (prefix === 'passport.nutrition.energyCalculated') return; // the energy figures go out as numbers; an import declares them
  if (typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(`${prefix}.${key}`, inner, out);
    return;
  }
  const cell = Array.isArray(value) ? value.map(cellOf).join('|') : cellOf(value);
  if (cell !== '') out[prefix] = cell;
}

/**
 * The inverse of rowToInput, for the export: a product's fields and its passport data (or none)
 * as a row under the template's headers. Every template header is present (empty when absent);
 * producers past the template's three add their own columns.
 */
export function inputToRow(
  product: Readonly<ImportProductFields> | Readonly<Partial<Record<ProductColumn, string | null | undefined>>>,
  passport: PassportData | undefined,
): Record<string, string> {
  const row: Record<string, string> = Object.fromEntries(IMPORT_HEADERS.map((header) => [header, '']));
  for (const column of PRODUCT_COLUMNS) {
    const value = product[column];
    if (typeof value === 'string') row[column] = value;
  }
  if (passport) {
    const { producers, ...rest } = passport;
    flatten('passport', rest, row);
    (producers ?? []).forEach((producer, i) => {
      for (const field of PRODUCER_FIELDS) {
        const value = (producer as Record<string, unknown>)[field];
        row[`passport.producers.${i + 1}.${field}`] = value === undefined || value === null ? '' : cellOf(value);
      }
    });
  }
  return row;
}

/** The headers of several exported rows: the template's, then any further producer columns, in order. */
export function headersOf(rows: readonly Record<string, string>[]): string[] {
  const extra = new Set<string>();
  for (const row of rows) for (const header of Object.keys(row)) if (!known.has(header)) extra.add(header);
  const sorted = [...extra].sort((a, b) => {
    const [, na = '0', fa = ''] = PRODUCER_HEADER.exec(a) ?? [];
    const [, nb = '0', fb = ''] = PRODUCER_HEADER.exec(b) ?? [];
    return Number(na) - Number(nb) || PRODUCER_FIELDS.indexOf(fa as never) - PRODUCER_FIELDS.indexOf(fb as never);
  });
  return [...IMPORT_HEADERS, ...sorted];
}

/**
 * The template header of a validation issue's path. The path is that of the row's object form:
 * product fields at the top (`['gtin']`), passport data under `passport`
 * (`['passport', 'nutrition', 'fatG']`). Array entries map back to their cell: an ingredient to
 * `passport.ingredients`, producer index 0 to `passport.producers.1.…`. A path that stops above a
 * column (an object) names its nearest column prefix.
 */
export function columnOf(path: readonly (string | number | symbol)[]): string {
  const parts = path.map((part) => (typeof part === 'symbol' ? String(part.description) : part));
  if (parts.length === 0) return '';
  if (parts[0] !== 'passport') return String(parts[0]);
  if (parts[1] === 'ingredients') return 'passport.ingredients';
  if (parts[1] === 'producers') {
    if (typeof parts[2] !== 'number') return 'passport.producers.1.name';
    const field = typeof parts[3] === 'string' ? parts[3] : 'name';
    return `passport.producers.${parts[2] + 1}.${field}`;
  }
  return parts.map(String).join('.');
}
