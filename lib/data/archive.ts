import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config.ts';
import type { Tenant } from '../domain/tenant.ts';
import { s3 } from './backup-store.ts';
import { db, tableName } from './client.ts';
import { tenantPk } from './keys.ts';

/**
 * What `POST /v1/exports/archive` reads and writes (docs/import-export.md#leaving-the-archive): the
 * tenant's partition by sort-key prefix, one DynamoDB page (at most 1 MB) at a time, and the
 * archive's object in the exports bucket, uploaded as a stream and read through a presigned URL.
 */
type Item = Record<string, unknown>;

/** Sort-key prefixes of the items an archive holds (the chart in lib/data/keys.ts). */
export const ARCHIVE_PREFIXES = {
  product: 'PRODUCT#',
  passport: 'PASSPORT#',
  batch: 'BATCH#',
  batchVersion: 'BATCHV#',
  item: 'ITEM#',
  itemVersion: 'ITEMV#',
  credential: 'VC#',
} as const;
export type ArchivePrefix = keyof typeof ARCHIVE_PREFIXES;

/** The Query pages of the tenant's items under one prefix, in sort-key order (with `count`, Select COUNT: no items sent). */
async function* prefixPages(tenant: Tenant, prefix: ArchivePrefix, count = false) {
  let startKey: Item | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantPk(tenant), ':prefix': ARCHIVE_PREFIXES[prefix] },
        ...(count ? { Select: 'COUNT' as const } : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    yield page;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** The tenant's items under one prefix, in sort-key order, a Query page at a time (only that page in memory). */
export async function* tenantItems(tenant: Tenant, prefix: ArchivePrefix): AsyncGenerator<Item> {
  for await (const page of prefixPages(tenant, prefix)) yield* page.Items ?? [];
}

/** How many of the tenant's items are under one prefix. */
export async function countTenantItems(tenant: Tenant, prefix: ArchivePrefix): Promise<number> {
  let count = 0;
  for await (const page of prefixPages(tenant, prefix, true)) count += page.Count ?? 0;
  return count;
}

/** The exports bucket (EXPORTS_BUCKET); undefined when none is configured. */
export const exportsBucket = (): string | undefined => config().exportsBucket;

/**
 * The size of one part of the upload, and how many parts are in flight: the upload holds at most
 * (UPLOAD_QUEUE + 1) × UPLOAD_PART_BYTES of the archive at a time. 5 MiB is S3's smallest part; an
 * archive below it is one PutObject.
 */
export const UPLOAD_PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_QUEUE = 1;

/** A streamed upload of `body` to `key` of the exports bucket; `abort()` stops it (the parts are dropped). */
export function uploadArchive(bucket: string, key: string, body: Readable, filename: string): { done: Promise<void>; abort: () => Promise<void> } {
  const upload = new Upload({
    client: s3(),
    params: { Bucket: bucket, Key: key, Body: body, ContentType: 'application/zip', ContentDisposition: `attachment; filename="${filename}"` },
    partSize: UPLOAD_PART_BYTES,
    queueSize: UPLOAD_QUEUE,
    leavePartsOnError: false,
  });
  return { done: upload.done().then(() => undefined), abort: () => upload.abort() };
}

/** A presigned GET of `key`, valid `seconds` from now. */
export async function presignArchive(bucket: string, key: string, seconds: number): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: seconds });
}
