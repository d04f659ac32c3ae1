import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, Transform, type Writable } from 'node:stream';
import { ZipFile } from 'yazl';
import * as z from 'zod';
import { countTenantItems, exportsBucket, presignArchive, tenantItems, uploadArchive } from '../data/archive.ts';
import { passportFromItem } from '../data/public-reads.ts';
import { unitConversionsMember } from '../domain/battery/units-migration.ts';
import { newSortableId } from '../domain/ids.ts';
import type { PassportVersion } from '../domain/passport.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitFromItem, type UnitKind } from '../domain/unit.ts';
import { ApiError, ServiceUnavailableError } from '../http/errors.ts';
import { organizationDidDocument, versionCredential } from './credentials.ts';
import { exportProducts } from './exports.ts';

/**
 * An organization's whole archive, so that a brand can leave the service with its passports and
 * their proofs (docs/import-export.md#leaving-the-archive): a ZIP of JSON Lines files, the
 * credentials, the DID document and a manifest, written as a stream to the exports bucket and
 * answered as a presigned URL. One tenant (organization + environment), read with its own key:
 * restricted battery elements are in it, and nothing of another tenant.
 */

/** The archive's format name, in its manifest. */
export const ARCHIVE_FORMAT = 'dpp-archive/1';
/** How long the presigned URL is valid: 15 minutes. */
export const ARCHIVE_URL_SECONDS = 15 * 60;
/**
 * The most lines (products, passport versions, batch and item versions) one archive holds, and the
 * most credentials one request signs: what keeps a request inside the products function's timeout
 * (29 s, API Gateway's limit; figures in docs/import-export.md#leaving-the-archive). Beyond either,
 * 422 and no archive is written (beyond the signing budget, that many are signed first).
 */
export const MAX_ARCHIVE_LINES = 5_000;
export const MAX_ARCHIVE_SIGNATURES = 200;
/** Credentials signed at once (each a KMS Sign call in AWS). */
const SIGNING_IN_FLIGHT = 8;
/** Products a page of products.jsonl (the product export's pages, lib/services/exports.ts). */
const PRODUCT_PAGE = 100;

export const ARCHIVE_FILES = ['products.jsonl', 'passports.jsonl', 'batches.jsonl', 'items.jsonl', 'credentials.jsonl', 'did.json', 'manifest.json'] as const;

export const archiveSchema = z
  .object({
    object: z.literal('archive'),
    url: z.url().describe(`A presigned GET of the ZIP, valid ${ARCHIVE_URL_SECONDS / 60} minutes; no credentials needed`),
    expiresAt: z.iso.datetime().describe('When the URL stops working'),
    bytes: z.int().min(0).describe("The ZIP's size in bytes"),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).describe("The hex SHA-256 of the ZIP's bytes"),
    files: z
      .array(
        z.union([
          z.object({ name: z.string(), lines: z.int().min(0).describe('JSON Lines: one object a line') }),
          z.object({ name: z.string(), bytes: z.int().min(0).describe('A JSON document') }),
        ]),
      )
      .describe('The files in the ZIP, in order; manifest.json names each with its SHA-256'),
  })
  .meta({ id: 'Archive' });
export type Archive = z.infer<typeof archiveSchema>;

interface FileFacts {
  name: string;
  sha256: string;
  lines?: number;
  bytes: number;
}

/** What passports.jsonl held of a version: what its credential line names. */
interface VersionRef {
  productId: string;
  passportId: string;
  gtin: string;
  version: number;
  digest: string;
}

/** Writes one line: a JSON value and a newline (JSON.stringify never writes a bare newline). */
type LineWriter = (value: unknown) => Promise<void>;

/**
 * Writes one file into the ZIP as a stream, hashing what it writes and counting its lines. A write
 * waits while the ZIP's reader is behind (backpressure), and stops when the upload fails.
 */
async function writeFile(zip: ZipFile, name: string, mtime: Date, failed: Promise<never>, fill: (line: LineWriter, raw: (text: string) => Promise<void>) => Promise<void>): Promise<FileFacts> {
  const entry = new PassThrough();
  zip.addReadStream(entry, name, { mtime });
  const hash = createHash('sha256');
  let lines = 0;
  let bytes = 0;
  const raw = async (text: string) => {
    const chunk = Buffer.from(text, 'utf8');
    hash.update(chunk);
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) lines++;
    if (!entry.write(chunk)) await Promise.race([once(entry, 'drain'), failed]);
  };
  await fill((value) => raw(`${JSON.stringify(value)}\n`), raw);
  entry.end();
  return { name, sha256: hash.digest('hex'), bytes, ...(name.endsWith('.jsonl') ? { lines } : {}) };
}

/** The kid of a compact JWS's header. */
const kidOf = (jwt: string): string | undefined => {
  try {
    const header = JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
};

/** The passport versions of the tenant, as their credential lines name them (one Query, a page at a time). */
async function versionRefs(tenant: Tenant, onVersion: (version: PassportVersion) => Promise<void> = async () => undefined): Promise<VersionRef[]> {
  const refs: VersionRef[] = [];
  for await (const item of tenantItems(tenant, 'passport')) {
    const version = passportFromItem(item);
    refs.push({ productId: version.productId, passportId: version.passportId, gtin: version.gtin, version: version.version, digest: version.digest });
    await onVersion(version);
  }
  return refs;
}

/**
 * How much the archive would hold, counted before anything is written (seven COUNT queries of the
 * tenant's partition): 422 beyond the budgets. Beyond the signing budget the request first signs
 * that many of the missing credentials, so that asking again goes on where it stopped.
 */
async function checkBudget(tenant: Tenant): Promise<void> {
  const prefixes = ['product', 'passport', 'batch', 'batchVersion', 'item', 'itemVersion', 'credential'] as const;
  const counted = await Promise.all(prefixes.map(async (prefix) => [prefix, await countTenantItems(tenant, prefix)] as const));
  const { product: products, passport: passports, batch: batches, batchVersion: batchVersions, item: items, itemVersion: itemVersions, credential: credentials } = Object.fromEntries(counted) as Record<
    (typeof prefixes)[number],
    number
  >;
  const lines = products + passports + batches + batchVersions + items + itemVersions;
  if (lines > MAX_ARCHIVE_LINES) {
    throw new ApiError(422, 'validation_error', `The archive would hold ${lines.toLocaleString('en')} lines (products, passport, batch and item versions); one archive holds at most ${MAX_ARCHIVE_LINES.toLocaleString('en')}. Nothing was written.`, {
      suggestion: 'Ask the operator for the backup copy of the organization (docs/backup.md#restore), which has no such limit.',
    });
  }
  const unsigned = Math.max(0, passports - credentials);
  if (unsigned > MAX_ARCHIVE_SIGNATURES) {
    const signed = await eachCredential(tenant, await versionRefs(tenant), async () => undefined, MAX_ARCHIVE_SIGNATURES);
    throw new ApiError(422, 'validation_error', `${unsigned.toLocaleString('en')} passport versions had no signed credential; one request signs at most ${MAX_ARCHIVE_SIGNATURES.toLocaleString('en')}, and this one signed ${signed.toLocaleString('en')}. No archive was written.`, {
      suggestion: `Ask again: each request signs up to ${MAX_ARCHIVE_SIGNATURES.toLocaleString('en')} more, and the archive is written once at most that many are left (docs/import-export.md#leaving-the-archive).`,
    });
  }
}

/**
 * Every version's credential, stored or signed now, in GTIN and version order: the stored ones
 * merged from one ordered Query, the missing ones signed SIGNING_IN_FLIGHT at a time. With
 * `signLimit`, stops once that many were signed. Answers how many it signed.
 */
async function eachCredential(tenant: Tenant, versions: VersionRef[], onCredential: (ref: VersionRef, jwt: string) => Promise<void>, signLimit = Infinity): Promise<number> {
  versions.sort((a, b) => (a.gtin === b.gtin ? a.version - b.version : a.gtin < b.gtin ? -1 : 1));
  const stored = tenantItems(tenant, 'credential');
  let next = await stored.next();
  const storedJwt = async (ref: VersionRef): Promise<string | undefined> => {
    while (!next.done) {
      const item = next.value;
      const gtin = String(item.gtin);
      const version = Number(item.version);
      if (gtin > ref.gtin || (gtin === ref.gtin && version > ref.version)) return undefined;
      next = await stored.next();
      if (gtin === ref.gtin && version === ref.version && typeof item.jwt === 'string') return item.jwt;
    }
    return undefined;
  };
  let signed = 0;
  for (let i = 0; i < versions.length && signed < signLimit; i += SIGNING_IN_FLIGHT) {
    const window = versions.slice(i, i + SIGNING_IN_FLIGHT);
    const found: (string | undefined)[] = [];
    for (const ref of window) found.push(await storedJwt(ref));
    // A version never signed is signed now (docs/credentials.md: signed once, then stored), several at once.
    const jwts = await Promise.all(window.map(async (ref, j) => found[j] ?? (signed++, await versionCredential(tenant, ref.gtin, ref.version))));
    for (const [j, ref] of window.entries()) {
      const jwt = jwts[j];
      if (!jwt) throw new Error(`The credential of ${ref.gtin} version ${ref.version} could not be made.`);
      await onCredential(ref, jwt);
    }
  }
  await stored.return(undefined);
  return signed;
}

/** The versions of one kind of unit: current ones first, then the earlier ones, each a line with its digest chain. */
async function writeUnits(tenant: Tenant, kind: UnitKind, line: LineWriter): Promise<void> {
  for (const prefix of kind === 'batch' ? (['batch', 'batchVersion'] as const) : (['item', 'itemVersion'] as const)) {
    for await (const item of tenantItems(tenant, prefix)) {
      const unit = unitFromItem(item, kind);
      // A version read in older units names its stored values, which its digest covers (docs/battery.md#units).
      if (unit) await line({ ...unit, ...unitConversionsMember(unit) });
    }
  }
}

/**
 * Builds the tenant's archive into the exports bucket and answers its presigned URL. The ZIP is
 * streamed: DynamoDB is read a page at a time and the upload holds at most two parts of 5 MiB, so
 * memory stays near 16 MiB whatever the archive's size (docs/import-export.md#leaving-the-archive).
 * Only the list of passport versions (for their credentials, about 200 bytes each) is kept.
 */
export async function exportArchive(tenant: Tenant): Promise<Archive> {
  const bucket = exportsBucket();
  if (!bucket) throw new ServiceUnavailableError(60, 'No exports store is configured; nothing was written.');
  await checkBudget(tenant);
  const createdAt = new Date();
  const key = `${tenant.orgId}/${tenant.environment}/${newSortableId('arc')}.zip`;
  const filename = `archive-${tenant.orgId}-${tenant.environment}-${createdAt.toISOString().slice(0, 10)}.zip`;

  const zip = new ZipFile();
  const whole = createHash('sha256');
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      whole.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  (zip.outputStream as unknown as Writable).on('error', (error: Error) => counted.destroy(error));
  zip.outputStream.pipe(counted);
  const upload = uploadArchive(bucket, key, counted, filename);
  // Settled here so that a failure while writing cannot leave it unhandled; `failed` stops a write waiting on a dead upload.
  const uploaded = upload.done.then(
    () => undefined,
    (error: unknown) => error,
  );
  const failed = upload.done.then(() => new Promise<never>(() => undefined));
  failed.catch(() => undefined);

  try {
    const files: FileFacts[] = [];
    const file = async (name: (typeof ARCHIVE_FILES)[number], fill: Parameters<typeof writeFile>[4]) => {
      files.push(await writeFile(zip, name, createdAt, failed, fill));
    };
    await file('products.jsonl', async (_line, raw) => {
      let after: string | undefined;
      do {
        const page = await exportProducts(tenant, 'ndjson', PRODUCT_PAGE, after);
        await raw(page.body);
        after = page.next;
      } while (after);
    });
    let versions: VersionRef[] = [];
    await file('passports.jsonl', async (line) => {
      versions = await versionRefs(tenant, (version) => line({ ...version, ...unitConversionsMember(version) }));
    });
    await file('batches.jsonl', (line) => writeUnits(tenant, 'batch', line));
    await file('items.jsonl', (line) => writeUnits(tenant, 'item', line));
    await file('credentials.jsonl', async (line) => {
      await eachCredential(tenant, versions, (ref, jwt) => line({ ...ref, kid: kidOf(jwt), jwt }));
    });
    // After the credentials: a key made by their first signature is in the document.
    const did = await organizationDidDocument(tenant.orgId);
    await file('did.json', (_line, raw) => raw(`${JSON.stringify(did, null, 2)}\n`));
    const manifest = {
      format: ARCHIVE_FORMAT,
      orgId: tenant.orgId,
      environment: tenant.environment,
      createdAt: createdAt.toISOString(),
      files: files.map((facts) => ({ name: facts.name, sha256: facts.sha256, ...(facts.lines === undefined ? { bytes: facts.bytes } : { lines: facts.lines }) })),
    };
    await file('manifest.json', (_line, raw) => raw(`${JSON.stringify(manifest, null, 2)}\n`));
    zip.end();
    const uploadError = await uploaded;
    if (uploadError) throw uploadError;
    const url = await presignArchive(bucket, key, ARCHIVE_URL_SECONDS);
    return {
      object: 'archive',
      url,
      expiresAt: new Date(Date.now() + ARCHIVE_URL_SECONDS * 1000).toISOString(),
      bytes,
      sha256: whole.digest('hex'),
      files: files.map((facts) => (facts.lines === undefined ? { name: facts.name, bytes: facts.bytes } : { name: facts.name, lines: facts.lines })),
    };
  } catch (error) {
    // Nothing half-written: an unfinished upload is aborted, so no object is made.
    counted.destroy();
    await upload.abort().catch(() => undefined);
    throw error;
  }
}
