import { listUnits } from '../data/items.ts';
import type { ExportFormat } from '../domain/export.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { itemHeadersOf, itemToRow, neutraliseItemRow } from '../domain/unit-columns.ts';
import { toUnitView, type Item } from '../domain/units.ts';
import { toCsv } from './csv.ts';

export interface ItemExportPage {
  body: string;
  rows: number;
  /** The serial to pass as `starting_after` for the next page; undefined on the last. */
  next: string | undefined;
}

/**
 * One page of a product's items in serial order, each with its Digital Link, in the columns of an
 * items file (lib/domain/unit-columns.ts): for a label printer, and a CSV page imports back unchanged
 * (docs/import-export.md#items). One Query a page.
 */
export async function exportItems(tenant: Tenant, product: ProductRecord, format: ExportFormat, limit: number, startingAfter?: string): Promise<ItemExportPage> {
  const page = await listUnits(tenant, 'item', product.gtin, limit, startingAfter);
  const rows = page.units.map((unit) => itemToRow(toUnitView(unit, product.qrCodeUrl) as Item));
  const body =
    format === 'csv'
      ? toCsv(itemHeadersOf(rows), rows.map(neutraliseItemRow))
      : rows.map((row) => `${JSON.stringify(Object.fromEntries(Object.entries(row).filter(([, cell]) => cell !== '')))}\n`).join('');
  return { body, rows: rows.length, next: page.hasMore ? page.units.at(-1)?.serial : undefined };
}
