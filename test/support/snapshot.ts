import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/data/client.ts';
import { orgPk, tenantPk } from '../../lib/data/keys.ts';
import { ENVIRONMENTS } from '../../lib/domain/tenant.ts';

/**
 * Everything an organization owns in the single table, read straight from the suite's DynamoDB
 * Local: both tenant partitions (`T#{orgId}#live`, `T#{orgId}#test`: products, GTIN items,
 * passports, suppliers), their idempotency records (`IDEMPOTENCY#{orgId}#{env}`), and the
 * organization partition (`ORG#{orgId}`: API keys, memberships, webhook endpoints), plus any
 * `extra` partitions (such as `WHE#{endpointId}` lookups).
 *
 * Item → canonical JSON, keyed by `PK SK`. `lastUsedAt` on API key listings is left out: every
 * authenticated request may record it (at most once a minute), whatever its answer.
 */
export type Snapshot = Map<string, string>;

const IGNORED_ATTRIBUTES = new Set(['lastUsedAt']);

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Set) return `set(${[...value].map(canonical).sort().join(',')})`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([name]) => !IGNORED_ATTRIBUTES.has(name))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

async function partition(pk: string, into: Snapshot): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) into.set(`${String(item.PK)} ${String(item.SK)}`, canonical(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** The organization's stored data now. */
export async function snapshotOrg(orgId: string, extra: readonly string[] = []): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  const pks = [
    ...ENVIRONMENTS.flatMap((environment) => [tenantPk({ orgId, environment }), `IDEMPOTENCY#${orgId}#${environment}`]),
    orgPk(orgId),
    ...extra,
  ];
  await Promise.all(pks.map((pk) => partition(pk, snapshot)));
  return snapshot;
}

/** What changed between two snapshots, one line per item (empty when nothing did). */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) lines.push(`+ ${key}`);
    else if (old !== value) lines.push(`~ ${key}: ${old} → ${value}`);
  }
  for (const key of before.keys()) if (!after.has(key)) lines.push(`- ${key}`);
  return lines;
}
