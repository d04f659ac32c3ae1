import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { cancellationReasons } from './errors.ts';
import { MEMBER_PREFIX, orgMemberKey, userMemberKey, userPk, type ItemKey } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew } from './writes.ts';

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
  const put = (key: ItemKey) => putNew({ ...key, type: 'membership', ...membership });
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          put(orgMemberKey(membership.orgId, membership.userId)),
          put(userMemberKey(membership.userId, membership.orgId)),
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
    new GetCommand({ TableName: tableName(), Key: orgMemberKey(orgId, userId) }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** The user's organizations in the order the user joined them. */
export async function listMembershipsOfUser(userId: string): Promise<Membership[]> {
  const { items } = await queryItems(beginsWith(userPk(userId), MEMBER_PREFIX));
  return items.map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.orgId.localeCompare(b.orgId));
}
