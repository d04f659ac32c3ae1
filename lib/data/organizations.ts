import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { orgPk } from './keys.ts';

/** Organizations: `ORG#{orgId}` / `ORG`. */
export interface Organization {
  orgId: string;
  name: string;
  createdAt: string;
}

const SK = 'ORG';

export async function insertOrganization(org: Organization): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { PK: orgPk(org.orgId), SK, type: 'organization', ...org },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getOrganization(orgId: string): Promise<Organization | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: orgPk(orgId), SK } }));
  if (!Item) return undefined;
  return { orgId: String(Item.orgId), name: String(Item.name), createdAt: String(Item.createdAt) };
}
