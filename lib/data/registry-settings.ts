import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './errors.ts';
import { OPERATOR_SCHEMES, type OperatorScheme } from '../domain/registry/operator.ts';
import type { RegistrySettings } from '../domain/registry/settings.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { REGISTRY_SETTINGS_SK, tenantPk, type ItemKey } from './keys.ts';
import { writeIfFirstHolds, type TransactItem } from './writes.ts';

/** A tenant's registry settings (docs/registry.md#settings): one item in its partition, `REGSETTINGS`. */
export const registrySettingsKey = (tenant: Tenant): ItemKey => ({ PK: tenantPk(tenant), SK: REGISTRY_SETTINGS_SK });

const isScheme = (value: unknown): value is OperatorScheme => typeof value === 'string' && (OPERATOR_SCHEMES as readonly string[]).includes(value);

/** The stored settings, or undefined when none were saved (or what is stored cannot be read as settings: then registration is off). */
export async function getRegistrySettings(tenant: Tenant): Promise<RegistrySettings | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: registrySettingsKey(tenant) }));
  if (!Item || typeof Item.enabled !== 'boolean') return undefined;
  const operator = Item.operator as { scheme?: unknown; identifier?: unknown } | undefined;
  if (!operator || !isScheme(operator.scheme) || typeof operator.identifier !== 'string') return undefined;
  return {
    enabled: Item.enabled,
    operator: { scheme: operator.scheme, identifier: operator.identifier },
    facilities: Array.isArray(Item.facilities) ? Item.facilities.map(String) : [],
    commodityCode: String(Item.commodityCode ?? ''),
    // Settings saved before the outbox existed go out in files.
    submission: Item.submission === 'api' ? 'api' : 'files',
    ...(typeof Item.sealCertificate === 'string' ? { sealCertificate: Item.sealCertificate } : {}),
    ...(typeof Item.operatorVerifiedAt === 'string' ? { operatorVerifiedAt: Item.operatorVerifiedAt } : {}),
    updatedAt: String(Item.updatedAt ?? ''),
  };
}

/** Replaces the settings, with what rides along (the event) in one transaction. */
export async function putRegistrySettings(tenant: Tenant, settings: RegistrySettings, also: readonly TransactItem[]): Promise<void> {
  await writeIfFirstHolds([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...registrySettingsKey(tenant),
          type: 'registrySettings',
          enabled: settings.enabled,
          operator: settings.operator,
          facilities: settings.facilities,
          commodityCode: settings.commodityCode,
          submission: settings.submission,
          ...(settings.sealCertificate === undefined ? {} : { sealCertificate: settings.sealCertificate }),
          ...(settings.operatorVerifiedAt === undefined ? {} : { operatorVerifiedAt: settings.operatorVerifiedAt }),
          updatedAt: settings.updatedAt,
        },
      },
    },
    ...also,
  ]);
}

/**
 * Records that the registry took an entry naming `operator` (docs/registry.md#settings): one
 * conditional update, written only while the stored settings name that operator and are not marked
 * verified yet. Answers whether it wrote.
 */
export async function markOperatorVerified(tenant: Tenant, operator: { scheme: string; identifier: string }, at: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: registrySettingsKey(tenant),
        UpdateExpression: 'SET operatorVerifiedAt = :at',
        ConditionExpression: 'attribute_not_exists(operatorVerifiedAt) AND #operator.#scheme = :scheme AND #operator.#identifier = :identifier',
        ExpressionAttributeNames: { '#operator': 'operator', '#scheme': 'scheme', '#identifier': 'identifier' },
        ExpressionAttributeValues: { ':at': at, ':scheme': operator.scheme, ':identifier': operator.identifier },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
