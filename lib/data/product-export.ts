import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { inCurrentUnits } from '../domain/battery/units-migration.ts';
import type { PassportData } from '../domain/passport.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { gtinSk, tenantPk } from './keys.ts';

/** BatchGetItem takes at most 100 keys a call. */
const BATCH = 100;
const MAX_ATTEMPTS = 8;

/**
 * The current passport data of each GTIN (GTIN-14) for the product export (docs/import-export.md).
 * It reads the GTIN items, which hold the current passport (docs/architecture.md#the-single-table):
 * one BatchGetItem per 100 products, eventually consistent and projected to `gtin` and `passport`,
 * instead of one GetItem per product of its version item. A GTIN without a passport is absent
 * from the map.
 */
export async function currentPassportData(tenant: Tenant, gtins: readonly string[]): Promise<Map<string, PassportData>> {
  const pk = tenantPk(tenant);
  const unique = [...new Set(gtins)];
  const found = new Map<string, PassportData>();
  for (let i = 0; i < unique.length; i += BATCH) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + BATCH).map((gtin) => ({ PK: pk, SK: gtinSk(gtin) }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      const { Responses, UnprocessedKeys } = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: { Keys: pending, ProjectionExpression: '#gtin, #passport', ExpressionAttributeNames: { '#gtin': 'gtin', '#passport': 'passport' } },
          },
        }),
      );
      for (const item of Responses?.[tableName()] ?? []) {
        const passport = item.passport as { data?: PassportData; dataUnits?: unknown } | undefined;
        // Battery data stored in older units is exported converted, as every read returns it (docs/battery.md#units).
        if (passport) found.set(String(item.gtin), inCurrentUnits({ data: passport.data ?? {} }, passport.dataUnits).data);
      }
      pending = UnprocessedKeys?.[tableName()]?.Keys ?? [];
      if (pending.length > 0 && attempt >= MAX_ATTEMPTS) throw new Error(`DynamoDB left ${pending.length} keys unprocessed after ${attempt} attempts.`);
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
  return found;
}
