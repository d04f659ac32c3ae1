import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { organizationKey } from './keys.ts';

/** Organizations (keys: lib/data/keys.ts). */
export interface Organization {
  orgId: string;
  name: string;
  createdAt: string;
}

export async function insertOrganization(org: Organization): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...organizationKey(org.orgId), type: 'organization', ...org },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getOrganization(orgId: string): Promise<Organization | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: organizationKey(orgId) }));
  if (!Item) return undefined;
  return { orgId: String(Item.orgId), name: String(Item.name), createdAt: String(Item.createdAt) };
}
