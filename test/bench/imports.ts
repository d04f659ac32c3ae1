import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { stringify } from 'csv-stringify/sync';
import { dynamoCallCount } from '../../lib/data/call-counts.ts';
import { importSk, tenantPk } from '../../lib/data/keys.ts';
import { checkDigit } from '../../lib/domain/gtin.ts';
import { MAX_IMPORT_ROWS } from '../../lib/domain/imports.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import type { Row } from './measure.ts';

/**
 * An import file of `rows` new wine products with their passports, as a brand uploads it: GTINs
 * `{prefix}0000000000…` with their check digits, names `{name} {i}`.
 */
export function wineImportFile(rows: number, gtinPrefix: string, name: string): Buffer {
  return Buffer.from(
    stringify(
      Array.from({ length: rows }, (_, i) => {
        const body = `${gtinPrefix}${String(i).padStart(10, '0')}`;
        return {
          gtin: `${body}${checkDigit(body)}`,
          name: `${name} ${i}`,
          category: 'wine',
          'passport.colour': 'white',
          'passport.vintage': String(2000 + (i % 24)),
          'passport.ingredients': 'grapes|sulphites',
          'passport.nutrition.energyKj': String(300 + (i % 50)),
          'passport.allergens.containsSulphites': 'true',
        };
      }),
      { header: true },
    ),
  );
}

/**
 * Bulk import through the local pipeline (docs/imports.md): a CSV of new products with their
 * passports uploaded to the gateway, queued in chunks on fauxqs, imported by the worker through
 * the local poller; then the same file again (every row unchanged). Rows per second from the
 * upload to the job's final status, and DynamoDB calls per row: every call this process makes
 * meanwhile (the upload's authentication and rate limit, the job and chunk writes, the worker's
 * reads and transactions). The job is watched with a client whose calls are not counted.
 */
export async function benchImports(stack: StackInfo, count: number): Promise<Row[]> {
  const rows = Math.min(count, MAX_IMPORT_ROWS);
  const { organization, keys } = await createOrganization('Bench imports');
  const tenant = { orgId: organization.orgId, environment: 'live' as const };
  const file = wineImportFile(rows, '48', 'Bench Riesling');
  const raw = localClient(stack.dynamodbEndpoint, stack.region);

  async function run(): Promise<{ rowsPerSecond: number; callsPerRow: number; counts: unknown }> {
    const calls = dynamoCallCount();
    const started = performance.now();
    const response = await fetch(`${stack.url}/v1/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.live.key}`, 'content-type': 'text/csv' },
      body: file,
    });
    if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    const { id } = (await response.json()) as { id: string };
    for (;;) {
      const { Item } = await raw.send(new GetItemCommand({ TableName: stack.tableName, Key: { PK: { S: tenantPk(tenant) }, SK: { S: importSk(id) } }, ConsistentRead: true }));
      const status = Item?.status?.S;
      if (status === 'succeeded' || status === 'failed') {
        const seconds = (performance.now() - started) / 1000;
        const counts = Object.fromEntries(['created', 'updated', 'unchanged', 'failed'].map((k) => [k, Number(Item?.[`${k}Count`]?.N ?? 0)]));
        return { rowsPerSecond: rows / seconds, callsPerRow: (dynamoCallCount() - calls) / rows, counts };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const fresh = await run();
  const again = await run();
  raw.destroy();
  return [
    { benchmark: 'imports', figure: `new products with passports (${rows}-row CSV)`, value: fresh.rowsPerSecond, unit: 'rows/s', note: JSON.stringify(fresh.counts) },
    { benchmark: 'imports', figure: 'DynamoDB calls per new product (job and chunks included)', value: fresh.callsPerRow, unit: 'calls' },
    { benchmark: 'imports', figure: 'the same file again (unchanged rows)', value: again.rowsPerSecond, unit: 'rows/s', note: JSON.stringify(again.counts) },
    { benchmark: 'imports', figure: 'DynamoDB calls per unchanged row', value: again.callsPerRow, unit: 'calls' },
  ];
}
