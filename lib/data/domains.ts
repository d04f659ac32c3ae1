import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DomainRecord } from '../domain/domain.ts';
import { db, getItem, tableName } from './client.ts';
import { cancellationReasons, isTransactionConflict, retryOnConflict } from './errors.ts';
import { DOMAIN_PREFIX, defaultDomainKey, domainKey, hostnameClaimKey, orgPk } from './keys.ts';
import { publicReads } from './public-reads.ts';
import { beginsWith, queryItems } from './query.ts';

/**
 * Brand-owned resolver domains (docs/brand-domains.md), as up to three items:
 * - `ORG#{orgId}` / `DOMAIN#{domainId}`: the domain, listed with its organization's;
 * - `HOST#{hostname}` / `HOST`: the claim on the hostname (`orgId`, `domainId`, `status`,
 *   `default`). Created pending with the first domain naming the hostname (if no claim exists),
 *   taken over by whichever organization verifies it first, then held: a verified claim is never
 *   written by another organization's domain (conditional write). The resolver reads it to route a
 *   brand host (one GetItem).
 * - `ORG#{orgId}` / `DEFAULTDOMAIN`: the organization's verified live default (`domainId`,
 *   `hostname`), so creating a live product reads it with one GetItem.
 * The imports here are type-only or zod-free: the resolver bundles this module.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

function fromItem(item: Record<string, unknown>): DomainRecord {
  return {
    domainId: String(item.domainId),
    orgId: String(item.orgId),
    hostname: String(item.hostname),
    status: item.status === 'verified' ? 'verified' : 'pending',
    default: item.default === true,
    verification: { name: String((item.verification as Record<string, unknown>).name), value: String((item.verification as Record<string, unknown>).value) },
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...(typeof item.verifiedAt === 'string' ? { verifiedAt: item.verifiedAt } : {}),
  };
}

export const { findDomainByHostname } = publicReads(getItem);

/**
 * Writes a new domain and, if no organization claims its hostname yet, a pending claim. Answers
 * 'verified-elsewhere' (nothing written) when another organization holds the hostname verified.
 */
export async function insertDomain(domain: DomainRecord, extra: TransactItem[] = []): Promise<'created' | 'verified-elsewhere'> {
  const claim = await db().send(new GetCommand({ TableName: tableName(), Key: hostnameClaimKey(domain.hostname), ConsistentRead: true }));
  if (claim.Item?.status === 'verified' && claim.Item.orgId !== domain.orgId) return 'verified-elsewhere';
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: { ...domainKey(domain.orgId, domain.domainId), type: 'domain', ...domain }, ConditionExpression: 'attribute_not_exists(PK)' } },
  ];
  if (!claim.Item) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: { ...hostnameClaimKey(domain.hostname), type: 'hostnameClaim', hostname: domain.hostname, orgId: domain.orgId, domainId: domain.domainId, status: 'pending', default: false },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
  }
  items.push(...extra);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return 'created';
  } catch (error) {
    // A claim written between the read and the write: try again against it.
    if (cancellationReasons(error)[1]?.Code === 'ConditionalCheckFailed') return insertDomain(domain, extra);
    throw error;
  }
}

export async function getDomain(orgId: string, domainId: string, consistent = false): Promise<DomainRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: domainKey(orgId, domainId), ...(consistent ? { ConsistentRead: true } : {}) }));
  return Item ? fromItem(Item) : undefined;
}

/** An organization's domains, oldest first (ids sort by creation time). */
export async function listDomains(orgId: string): Promise<DomainRecord[]> {
  const { items } = await queryItems(beginsWith(orgPk(orgId), DOMAIN_PREFIX));
  return items.map(fromItem);
}

/**
 * Marks the domain verified and claims its hostname for its organization, in one transaction.
 * The claim is conditional: absent, pending, or already this domain's. Answers
 * 'verified-elsewhere' (nothing written) when another organization verified the hostname first,
 * 'gone' when the domain was deleted meanwhile.
 */
export async function markVerified(domain: DomainRecord, verifiedAt: string, extra: TransactItem[] = []): Promise<'verified' | 'verified-elsewhere' | 'gone'> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: domainKey(domain.orgId, domain.domainId),
              UpdateExpression: 'SET #status = :verified, verifiedAt = :at, updatedAt = :at',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':verified': 'verified', ':at': verifiedAt },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...hostnameClaimKey(domain.hostname),
                type: 'hostnameClaim',
                hostname: domain.hostname,
                orgId: domain.orgId,
                domainId: domain.domainId,
                status: 'verified',
                default: domain.default,
              },
              ConditionExpression: 'attribute_not_exists(PK) OR #status <> :verified OR domainId = :domainId',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':verified': 'verified', ':domainId': domain.domainId },
            },
          },
          ...extra,
        ],
      }),
    );
    return 'verified';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'gone';
    if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'verified-elsewhere';
    throw error;
  }
}

/** The organization's verified live default domain (one GetItem), if it has one. */
export async function getDefaultDomain(orgId: string): Promise<{ domainId: string; hostname: string } | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: defaultDomainKey(orgId) }));
  if (!Item || typeof Item.domainId !== 'string' || typeof Item.hostname !== 'string') return undefined;
  return { domainId: Item.domainId, hostname: Item.hostname };
}

/** The updates that set `default` on a domain and on its claim (if the claim is still the domain's). */
function defaultFlagUpdates(domain: DomainRecord, value: boolean, now: string): TransactItem[] {
  return [
    {
      Update: {
        TableName: tableName(),
        Key: domainKey(domain.orgId, domain.domainId),
        UpdateExpression: 'SET #default = :value, updatedAt = :now',
        // Making a domain the default is conditional on the domain still existing, verified, in the
        // same transaction as the pointer: no pointer ever names a deleted domain (docs/security.md).
        ConditionExpression: value ? 'attribute_exists(PK) AND #status = :verified' : 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#default': 'default', ...(value ? { '#status': 'status' } : {}) },
        ExpressionAttributeValues: { ':value': value, ':now': now, ...(value ? { ':verified': 'verified' } : {}) },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: hostnameClaimKey(domain.hostname),
        UpdateExpression: 'SET #default = :value',
        ConditionExpression: 'domainId = :domainId',
        ExpressionAttributeNames: { '#default': 'default' },
        ExpressionAttributeValues: { ':value': value, ':domainId': domain.domainId },
      },
    },
  ];
}

/**
 * The default read before a change: the domain the pointer names, or only its id when the pointer
 * names a domain that no longer exists (left by the delete race of before docs/security.md's
 * finding 4; the next change of the default overwrites it).
 */
export type PreviousDefault = DomainRecord | { domainId: string };

/** The organization's default pointer and the domain it names, read consistently (undefined: no default). */
export async function readDefault(orgId: string): Promise<PreviousDefault | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: defaultDomainKey(orgId), ConsistentRead: true }));
  if (!Item || typeof Item.domainId !== 'string') return undefined;
  return (await getDomain(orgId, Item.domainId, true)) ?? { domainId: Item.domainId };
}

/**
 * Makes a verified domain its organization's default (or, with `value` false, no longer the
 * default), moving the flag from the previous default in the same transaction: one default per
 * organization. `previous` is the default read before; the write fails ('conflict') if it changed,
 * if the domain was deleted or is not verified, or if it lost to a concurrent transaction.
 */
export async function setDefault(
  domain: DomainRecord,
  value: boolean,
  previous: PreviousDefault | undefined,
  now: string,
  extra: TransactItem[] = [],
): Promise<'updated' | 'conflict'> {
  const pointer: TransactItem = value
    ? {
        Put: {
          TableName: tableName(),
          Item: { ...defaultDomainKey(domain.orgId), type: 'defaultDomain', domainId: domain.domainId, hostname: domain.hostname },
          ...(previous
            ? { ConditionExpression: 'domainId = :previous', ExpressionAttributeValues: { ':previous': previous.domainId } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      }
    : {
        Delete: {
          TableName: tableName(),
          Key: defaultDomainKey(domain.orgId),
          ConditionExpression: 'domainId = :domainId',
          ExpressionAttributeValues: { ':domainId': domain.domainId },
        },
      };
  const items: TransactItem[] = [pointer, ...defaultFlagUpdates(domain, value, now)];
  // A previous default that no longer exists has no flags to clear: the pointer's overwrite is the repair.
  if (value && previous && 'hostname' in previous && previous.domainId !== domain.domainId) items.push(...defaultFlagUpdates(previous, false, now));
  items.push(...extra);
  try {
    await retryOnConflict(() => db().send(new TransactWriteCommand({ TransactItems: items })));
    return 'updated';
  } catch (error) {
    if (cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed') || isTransactionConflict(error)) return 'conflict';
    throw error;
  }
}

/** How often a delete re-reads and tries again when a concurrent change moved what it read. */
const DELETE_ATTEMPTS = 8;

/**
 * Deletes a domain, its claim on the hostname (only if the claim is this domain's: another
 * organization's verified claim stays) and, if it is the default, the default pointer, in one
 * transaction that is conditional on what it read (docs/security.md, finding 4): the domain item
 * must still have the `default` and `status` read (a concurrent "make default" or verification
 * changes them), the pointer is deleted only while it names this domain, and the claim only while
 * it is this domain's. When a condition fails, the domain and its claim are read again
 * (consistently) and the delete is tried again. Answers 'gone' when the domain was deleted meanwhile
 * and 'conflict' after DELETE_ATTEMPTS lost races. `extra` (the change's event,
 * docs/lifecycle.md#event-log) joins the transaction; it is made from the domain as last read.
 */
export async function deleteDomain(
  domain: DomainRecord,
  extra: TransactItem[] | ((current: DomainRecord) => TransactItem[]) = [],
): Promise<'deleted' | 'gone' | 'conflict'> {
  let current: DomainRecord | undefined = domain;
  for (let attempt = 1; attempt <= DELETE_ATTEMPTS; attempt++) {
    if (attempt > 1) {
      current = await getDomain(domain.orgId, domain.domainId, true);
      if (!current) return 'gone';
    }
    // Read consistently: a stale "not this domain's" would leave a claim naming a deleted domain.
    const { Item: claim } = await db().send(new GetCommand({ TableName: tableName(), Key: hostnameClaimKey(current.hostname), ConsistentRead: true }));
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: tableName(),
          Key: domainKey(current.orgId, current.domainId),
          ConditionExpression: 'attribute_exists(PK) AND #default = :default AND #status = :status',
          ExpressionAttributeNames: { '#default': 'default', '#status': 'status' },
          ExpressionAttributeValues: { ':default': current.default, ':status': current.status },
        },
      },
    ];
    if (claim?.domainId === current.domainId) {
      items.push({
        Delete: {
          TableName: tableName(),
          Key: hostnameClaimKey(current.hostname),
          ConditionExpression: 'domainId = :domainId',
          ExpressionAttributeValues: { ':domainId': current.domainId },
        },
      });
    }
    if (current.default) {
      items.push({
        Delete: {
          TableName: tableName(),
          Key: defaultDomainKey(current.orgId),
          ConditionExpression: 'domainId = :domainId',
          ExpressionAttributeValues: { ':domainId': current.domainId },
        },
      });
    }
    items.push(...(typeof extra === 'function' ? extra(current) : extra));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return 'deleted';
    } catch (error) {
      const lost = cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed') || isTransactionConflict(error);
      if (!lost) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, 5 * 2 ** attempt) * Math.random()));
    }
  }
  return 'conflict';
}
