import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { cancellationReasons, isConditionFailure } from './errors.ts';
import { emailKey, identityKey, userKey } from './keys.ts';
import { putNew } from './writes.ts';

/**
 * Dashboard users. Items:
 * - `USER#{userId}` / `USER`: the user;
 * - `EMAIL#{email}` / `EMAIL`: the claim on a (lower-case) email address, pointing at its user;
 * - `IDENTITY#{issuer}#{subject}` / `IDENTITY`: a sign-in identity at an identity provider
 *   (the ID token's `iss` and `sub`), pointing at its user.
 */
export interface User {
  userId: string;
  email: string;
  name?: string;
  createdAt: string;
}

function fromItem(item: Record<string, unknown>): User {
  return {
    userId: String(item.userId),
    email: String(item.email),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    createdAt: String(item.createdAt),
  };
}

/** Writes the user and its email claim together; 'duplicate' when the email is taken. */
export async function insertUser(user: User): Promise<'created' | 'duplicate'> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          putNew({ ...emailKey(user.email), type: 'userEmail', userId: user.userId }),
          putNew({ ...userKey(user.userId), type: 'user', ...user }),
        ],
      }),
    );
    return 'created';
  } catch (error) {
    if (cancellationReasons(error)[0]?.Code === 'ConditionalCheckFailed') return 'duplicate';
    throw error;
  }
}

export async function getUser(userId: string): Promise<User | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: userKey(userId) }));
  return Item ? fromItem(Item) : undefined;
}

export async function findUserIdByEmail(email: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: emailKey(email) }));
  return typeof Item?.userId === 'string' ? Item.userId : undefined;
}

export async function findUserIdByIdentity(issuer: string, subject: string): Promise<string | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: identityKey(issuer, subject) }),
  );
  return typeof Item?.userId === 'string' ? Item.userId : undefined;
}

/**
 * Links an identity to a user. Returns the user the identity belongs to: `userId`, or the user a
 * concurrent first sign-in linked it to.
 */
export async function linkIdentity(issuer: string, subject: string, userId: string, now: string): Promise<string> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...identityKey(issuer, subject), type: 'userIdentity', issuer, subject, userId, createdAt: now },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return userId;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await findUserIdByIdentity(issuer, subject)) ?? userId;
  }
}
