import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { config } from '../config.ts';
import type { ObjectLock } from '../domain/backup-retention.ts';
import { sdkClientBudget } from './aws-budget.ts';

/**
 * The backup store (docs/backup.md): an S3 bucket, in AWS with Object Lock in compliance mode
 * (infra/cdk/constructs/backup.ts), locally the S3 emulation of fauxqs behind
 * infra/local/backup-store.ts. Objects are only ever created: every put is conditional
 * (`If-None-Match: *`), so a version already in the store is never overwritten by this code, and
 * the functions are granted no delete.
 */
let client: S3Client | undefined;

export function s3(): S3Client {
  if (client) return client;
  const { region, backupRegion, s3Endpoint } = config();
  client = new S3Client({
    // The store may be in another region than the service (docs/backup.md#another-region-or-account).
    region: backupRegion ?? region,
    ...sdkClientBudget(),
    ...(s3Endpoint ? { endpoint: s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  return client;
}

export function backupBucket(): string {
  const bucket = config().backupBucket;
  if (!bucket) throw new Error('BACKUP_BUCKET is not set: no backup store is configured.');
  return bucket;
}

/** What a conditional put did: wrote the object, or found one there already (with its digest). */
export type PutOutcome = { written: true } | { written: false; existingDigest: string | undefined };

const status = (error: unknown): number | undefined => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);

/** The bucket of the public copy (docs/backup.md#the-public-copy), or undefined when none is configured. */
export const backupPublicBucket = (): string | undefined => config().backupPublicBucket;

/** The HTTP headers an object is served with (the public copy's: its type, language and caching). */
export interface ObjectHeaders {
  contentType?: string;
  contentLanguage?: string;
  cacheControl?: string;
}

/**
 * Creates `key` with `body` and its digest in the metadata, only if no object has that key. With
 * `lock`, the object's own Object Lock (docs/backup.md#retention): compliance-mode retention until
 * its date, and a legal hold when asked (the product's category keeps it for the product's life).
 */
export async function putOnce(key: string, body: string, digest: string, bucket = backupBucket(), headers: ObjectHeaders = {}, lock?: ObjectLock): Promise<PutOutcome> {
  try {
    await s3().send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: headers.contentType ?? 'application/json',
        ...(headers.contentLanguage ? { ContentLanguage: headers.contentLanguage } : {}),
        ...(headers.cacheControl ? { CacheControl: headers.cacheControl } : {}),
        Metadata: { digest },
        IfNoneMatch: '*',
        ...(lock ? { ObjectLockMode: 'COMPLIANCE' as const, ObjectLockRetainUntilDate: lock.retainUntil, ...(lock.legalHold ? { ObjectLockLegalHoldStatus: 'ON' as const } : {}) } : {}),
      }),
    );
    return { written: true };
  } catch (error) {
    // 412: the key exists. 409: a concurrent conditional put of the same key is in flight (S3 asks to retry).
    if (status(error) === 412) return { written: false, existingDigest: (await headDigest(key, bucket)) ?? undefined };
    throw error;
  }
}

/** An object's digest metadata; null when there is no such object. */
export async function headDigest(key: string, bucket = backupBucket()): Promise<string | null | undefined> {
  try {
    const out = await s3().send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return out.Metadata?.digest;
  } catch (error) {
    if (status(error) === 404) return null;
    throw error;
  }
}

/** An object's body and digest metadata, or undefined when there is none. */
export async function getObject(key: string, bucket = backupBucket()): Promise<{ body: string; digest: string | undefined } | undefined> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return { body: (await out.Body?.transformToString('utf8')) ?? '', digest: out.Metadata?.digest };
  } catch (error) {
    if (status(error) === 404) return undefined;
    throw error;
  }
}

/** Every key under `prefix`, in key order, a page of up to 1,000 at a time. */
export async function* listKeys(prefix: string, bucket = backupBucket()): AsyncGenerator<string> {
  let token: string | undefined;
  do {
    const out = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
    for (const object of out.Contents ?? []) if (object.Key) yield object.Key;
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
}
