import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { organizationKey } from './keys.ts';

/** Organizations (keys: lib/data/keys.ts). */
export interface Organization {
  orgId: string;
  name: string;
  createdAt: string;
  /** A notified body, market surveillance authority or the Commission: its keys read the authority tier of every live passport (docs/access.md#authorities). */
  authority?: boolean;
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
  return { orgId: String(Item.orgId), name: String(Item.name), createdAt: String(Item.createdAt), ...(Item.authority === true ? { authority: true } : {}) };
}

/** Marks an organization as an authority, or no longer (false when there is no such organization). */
export async function setAuthority(orgId: string, authority: boolean): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: organizationKey(orgId),
        UpdateExpression: authority ? 'SET authority = :yes' : 'REMOVE authority',
        ConditionExpression: 'attribute_exists(PK)',
        ...(authority ? { ExpressionAttributeValues: { ':yes': true } } : {}),
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
