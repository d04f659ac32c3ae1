import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { cancellationReasons } from './errors.ts';
import { orgPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';

/**
 * Members of organizations, written as two items together:
 * - `USER#{userId}` / `MEMBER#{orgId}`: the user's organizations, with each one's name, so that a
 *   session lists them with one query;
 * - `ORG#{orgId}` / `MEMBER#{userId}`: the organization's members, read to check a session's membership.
 */
export interface Membership {
  orgId: string;
  orgName: string;
  userId: string;
  email: string;
  createdAt: string;
}

const MEMBER = 'MEMBER#';
const userPk = (userId: string): string => `USER#${userId}`;

function fromItem(item: Record<string, unknown>): Membership {
  return {
    orgId: String(item.orgId),
    orgName: String(item.orgName),
    userId: String(item.userId),
    email: String(item.email),
    createdAt: String(item.createdAt),
  };
}

/** Adds the user to the organization; 'exists' when already a member. */
export async function insertMembership(membership: Membership): Promise<'created' | 'exists'> {
  const put = (PK: string, SK: string) => ({
    Put: {
      TableName: tableName(),
      Item: { PK, SK, type: 'membership', ...membership },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  });
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          put(orgPk(membership.orgId), `${MEMBER}${membership.userId}`),
          put(userPk(membership.userId), `${MEMBER}${membership.orgId}`),
        ],
      }),
    );
    return 'created';
  } catch (error) {
    if (cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed')) return 'exists';
    throw error;
  }
}

export async function getMembership(orgId: string, userId: string): Promise<Membership | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: orgPk(orgId), SK: `${MEMBER}${userId}` } }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** The user's organizations in the order the user joined them. */
export async function listMembershipsOfUser(userId: string): Promise<Membership[]> {
  const { items } = await queryItems(beginsWith(userPk(userId), MEMBER));
  return items.map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.orgId.localeCompare(b.orgId));
}
