import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { sessionKey } from './keys.ts';
import { TABLE } from './table.ts';

/**
 * Dashboard sessions: `SESSION#{sessionId}` / `SESSION`, removed at sign-out and expiring (TTL)
 * with the session. The item only says that the session is live; everything else (user, current
 * organization and environment, CSRF token) travels in the encrypted cookie.
 */
export interface SessionRecord {
  sessionId: string;
  userId: string;
  createdAt: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export async function insertSession(session: SessionRecord): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...sessionKey(session.sessionId), type: 'session', ...session, [TABLE.ttlAttribute]: session.expiresAt },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** The live session, or undefined once it was ended or has expired (TTL deletes lazily). */
export async function getSession(sessionId: string, nowSeconds: number): Promise<SessionRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: sessionKey(sessionId) }));
  if (!Item || Number(Item.expiresAt) <= nowSeconds) return undefined;
  return {
    sessionId: String(Item.sessionId),
    userId: String(Item.userId),
    createdAt: String(Item.createdAt),
    expiresAt: Number(Item.expiresAt),
  };
}

export async function deleteSession(sessionId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: sessionKey(sessionId) }));
}
