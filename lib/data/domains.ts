import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DomainRecord } from '../domain/domain.ts';
import { db, getItem, tableName } from './client.ts';
import { cancellationReasons } from './errors.ts';
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

export async function getDomain(orgId: string, domainId: string): Promise<DomainRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: domainKey(orgId, domainId) }));
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
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#default': 'default' },
        ExpressionAttributeValues: { ':value': value, ':now': now },
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
 * Makes a verified domain its organization's default (or, with `value` false, no longer the
 * default), moving the flag from the previous default in the same transaction: one default per
 * organization. `previous` is the default read before; the write fails ('conflict') if it changed.
 */
export async function setDefault(
  domain: DomainRecord,
  value: boolean,
  previous: DomainRecord | undefined,
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
  if (value && previous && previous.domainId !== domain.domainId) items.push(...defaultFlagUpdates(previous, false, now));
  items.push(...extra);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return 'updated';
  } catch (error) {
    if (cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed')) return 'conflict';
    throw error;
  }
}

/**
 * Deletes a domain, its claim on the hostname (only if the claim is this domain's: another
 * organization's verified claim stays) and, if it was the default, the default pointer. In this
 * module, `extra` always joins the write's transaction (the change's event, docs/lifecycle.md#event-log).
 */
export async function deleteDomain(domain: DomainRecord, extra: TransactItem[] = []): Promise<void> {
  const claim = await findDomainByHostname(domain.hostname);
  const items: TransactItem[] = [{ Delete: { TableName: tableName(), Key: domainKey(domain.orgId, domain.domainId) } }];
  const withClaim = claim?.domainId === domain.domainId;
  if (withClaim) {
    items.push({
      Delete: {
        TableName: tableName(),
        Key: hostnameClaimKey(domain.hostname),
        ConditionExpression: 'domainId = :domainId',
        ExpressionAttributeValues: { ':domainId': domain.domainId },
      },
    });
  }
  if (domain.default) {
    items.push({
      Delete: {
        TableName: tableName(),
        Key: defaultDomainKey(domain.orgId),
        ConditionExpression: 'attribute_not_exists(PK) OR domainId = :domainId',
        ExpressionAttributeValues: { ':domainId': domain.domainId },
      },
    });
  }
  items.push(...extra);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    // The claim changed hands between the read and the write: delete without it.
    if (withClaim && cancellationReasons(error)[1]?.Code === 'ConditionalCheckFailed') {
      await db().send(new TransactWriteCommand({ TransactItems: items.filter((_, i) => i !== 1) }));
      return;
    }
    throw error;
  }
}
