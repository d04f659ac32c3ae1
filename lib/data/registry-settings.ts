import { GetCommand } from '@aws-sdk/lib-dynamodb';
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
    updatedAt: String(Item.updatedAt ?? ''),
  };
}

/** Replaces the settings, with what rides along (the event) in one transaction. */
export async function putRegistrySettings(tenant: Tenant, settings: RegistrySettings, also: readonly TransactItem[]): Promise<void> {
  await writeIfFirstHolds([
    {
      Put: {
        TableName: tableName(),
        Item: { ...registrySettingsKey(tenant), type: 'registrySettings', enabled: settings.enabled, operator: settings.operator, facilities: settings.facilities, commodityCode: settings.commodityCode, submission: settings.submission, updatedAt: settings.updatedAt },
      },
    },
    ...also,
  ]);
}
