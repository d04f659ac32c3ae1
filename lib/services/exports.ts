import { currentPassportData } from '../data/product-export.ts';
import { listProductsAfter } from '../data/products.ts';
import type { ExportFormat } from '../domain/export.ts';
import { headersOf, inputToRow, neutraliseRow } from '../domain/import-columns.ts';
import type { PassportData } from '../domain/passport.ts';
import { holdsBatteryData, PASSPORT_JSON_COLUMN } from '../domain/passport-kinds.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { toCsv } from './csv.ts';


export interface ExportPage {
  /** The page in its format: CSV with its header row, or one JSON object a line. */
  body: string;
  rows: number;
  /** The productId to pass as `starting_after` for the next page; undefined on the last. */
  next: string | undefined;
}

/** A product's own fields as the template's columns hold them. */
const productCells = (product: ProductRecord) => ({
  gtin: product.gtin,
  name: product.name,
  category: product.category,
  brand: product.brand,
  sku: product.sku,
  economicOperatorId: product.economicOperatorId,
  facilityId: product.facilityId,
  commodityCode: product.commodityCode,
  granularity: product.granularity ?? 'model',
});

/**
 * A product's row: its passport in the template's columns, or a battery passport whole as JSON in
 * the passport column (a JSON line holds it as an object), as the import reads it back
 * (docs/battery.md#import-and-export).
 */
function exportRow(product: ProductRecord, passport: PassportData | undefined): Record<string, string> {
  if (passport === undefined || !holdsBatteryData(passport)) return inputToRow(productCells(product), passport);
  return { ...inputToRow(productCells(product), undefined), [PASSPORT_JSON_COLUMN]: JSON.stringify(passport) };
}

/**
 * One page of the tenant's products in creation order, each with its current passport data, in
 * the template's columns (lib/domain/import-columns.ts): a CSV page imports back unchanged. A CSV
 * page neutralises text cells a spreadsheet would read as a formula (neutraliseRow); NDJSON, for
 * machines, writes the values as stored. Reads
 * one Query for the products and one BatchGetItem per 100 of them for their passports.
 */
export async function exportProducts(tenant: Tenant, format: ExportFormat, limit: number, startingAfter?: string): Promise<ExportPage> {
  const page = await listProductsAfter(tenant, limit, startingAfter);
  const withPassport = page.products.filter((product) => product.passportVersion > 0);
  const passports = withPassport.length > 0 ? await currentPassportData(tenant, withPassport.map((product) => product.gtin)) : new Map();
  const rows = page.products.map((product) => exportRow(product, passports.get(product.gtin)));
  const body =
    format === 'csv'
      ? // Formula cells neutralised for spreadsheets; the import removes the quote again (docs/import-export.md#export).
        toCsv(headersOf(rows), rows.map(neutraliseRow))
      : rows.map((row) => `${JSON.stringify(Object.fromEntries(Object.entries(row).filter(([, cell]) => cell !== '').map(([header, cell]) => [header, header === PASSPORT_JSON_COLUMN ? (JSON.parse(cell) as unknown) : cell])))}\n`).join('');
  return { body, rows: rows.length, next: page.hasMore ? page.products.at(-1)?.productId : undefined };
}
