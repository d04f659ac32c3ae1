import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const BACKUP_BUCKET = 'passport-backup';
/** The public copy (docs/backup.md#the-public-copy): each version's public read form and pages, read unsigned. */
export const BACKUP_PUBLIC_BUCKET = 'passport-backup-public';
/** The archives of `POST /v1/exports/archive` (docs/import-export.md#leaving-the-archive), read through presigned URLs. */
export const EXPORTS_BUCKET = 'passport-exports';

export interface LocalBackupStore {
  /** The S3 endpoint clients use (path-style): `http://127.0.0.1:port`. */
  endpoint: string;
  bucket: string;
  /** The public copy's bucket. */
  publicBucket: string;
  /** The exports bucket (EXPORTS_BUCKET): organizations' archives. */
  exportsBucket: string;
  /** Where the public copy is read without signing (BACKUP_PUBLIC_ORIGIN locally): `{endpoint}/{publicBucket}`. */
  publicOrigin: string;
  /** Requests the store answered, by S3 action as the store sees it (the bench counts them). */
  counts(): Readonly<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * A request's query as S3 reads it: each parameter's name and value percent-decoded (`+` a space)
 * and the name case-folded, so that `?Delete`, `?DELETE` and `?%64elete` are all `delete`.
 * Undefined when a name or value is not valid percent-encoding (docs/backup.md#a-version-is-never-overwritten).
 */
export function s3Query(search: string): Map<string, string[]> | undefined {
  const query = new Map<string, string[]>();
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const [rawName, rawValue] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    try {
      const name = decodeURIComponent(rawName.replaceAll('+', ' ')).toLowerCase();
      query.set(name, [...(query.get(name) ?? []), decodeURIComponent(rawValue.replaceAll('+', ' '))]);
    } catch {
      return undefined;
    }
  }
  return query;
}

/**
 * What the relay lets through to fauxqs, by an allow-list of S3 actions (anything else is refused
 * with 403): reads (GET, HEAD, OPTIONS); CreateBucket without a subresource; PutObject; and the multipart upload the
 * archive export uses (CreateMultipartUpload, UploadPart, CompleteMultipartUpload). A mutation is
 * forwarded with the query the relay rebuilt, never the one sent, so fauxqs acts on what was checked.
 */
type Action =
  | { kind: 'read' }
  | { kind: 'create-bucket' }
  | { kind: 'put' }
  | { kind: 'create-upload' }
  | { kind: 'upload-part'; uploadId: string; partNumber: string }
  | { kind: 'complete-upload'; uploadId: string }
  | { kind: 'refuse'; status: number; code: string; message: string };

const NEVER_DELETED = 'Objects of the backup store are never deleted or replaced (Object Lock, compliance mode).';

/** The action of a request on `key` ('' for the bucket itself) with the normalised `query` (s3Query). */
export function s3Action(method: string, key: string, query: Map<string, string[]>, headers: IncomingMessage['headers']): Action {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return { kind: 'read' };
  const refuse = (message = NEVER_DELETED): Action => ({ kind: 'refuse', status: 403, code: 'AccessDenied', message });
  // The SDK names its operation in `x-id`; fauxqs reads nothing from it, and it is not forwarded.
  const names = [...query.keys()].filter((name) => name !== 'x-id').sort();
  if ([...query.values()].some((values) => values.length > 1)) return { kind: 'refuse', status: 400, code: 'InvalidArgument', message: 'A query parameter is named more than once.' };
  const only = (...expected: string[]) => names.length === expected.length && expected.every((name, i) => names[i] === name);
  const value = (name: string) => query.get(name)?.[0] ?? '';
  if (method === 'PUT' && key === '') return only() ? { kind: 'create-bucket' } : refuse('The backup buckets\' settings (lifecycle, versioning, policy, Object Lock, …) are not changed through the store.');
  if (method === 'PUT' && headers['x-amz-copy-source'] !== undefined) return refuse('The backup store copies no objects: every object is written once, by its own put.');
  if (method === 'PUT' && only()) return { kind: 'put' };
  if (method === 'PUT' && only('partnumber', 'uploadid') && /^[1-9]\d{0,4}$/.test(value('partnumber'))) return { kind: 'upload-part', uploadId: value('uploadid'), partNumber: value('partnumber') };
  if (method === 'POST' && key !== '' && only('uploads') && value('uploads') === '') return { kind: 'create-upload' };
  if (method === 'POST' && key !== '' && only('uploadid')) return { kind: 'complete-upload', uploadId: value('uploadid') };
  // DELETE (an object, a version, the bucket, an upload), POST ?delete in any spelling (and any POST
  // fauxqs would read as one: it deletes on every POST but ?uploads and ?uploadId), PUT ?tagging, ?retention, …
  return refuse();
}

/**
 * The local backup store (docs/backup.md, docs/decisions.md#the-backup-store-locally): fauxqs's S3
 * emulation behind a small relay on 127.0.0.1 that adds what fauxqs does not do and the copy relies
 * on. fauxqs stores metadata and serves put, get, head and list, but ignores `If-None-Match` on a
 * put, keeps no object locks, and deletes on any POST that is not a multipart upload. The relay
 * therefore normalises each request's path and query (s3Query) and lets through only the actions of
 * s3Action:
 * - it answers a put with `If-None-Match: *` on an existing key with 412 PreconditionFailed (S3's
 *   conditional write), one put per key at a time so that two racing puts cannot both win;
 * - it refuses a put without that header on an existing key, a copy, a multipart upload onto an
 *   existing key, every delete form and every change of a bucket's settings with 403 AccessDenied:
 *   it stands in for the AWS buckets' policy (puts must be conditional) and Object Lock in
 *   compliance mode, so no code path overwrites or deletes a version locally either.
 */
export async function startBackupStore(fauxqsPort: number, bucket = BACKUP_BUCKET): Promise<LocalBackupStore> {
  const counts: Record<string, number> = {};
  const locks = new Map<string, Promise<void>>();
  /** The multipart uploads the relay let start: upload id → the key's decoded path and the path fauxqs was sent. */
  const uploads = new Map<string, { path: string; rawPath: string }>();
  const target = { host: '127.0.0.1', port: fauxqsPort };

  /** Sends the request on to fauxqs at `path` (with the query the relay chose) and its answer back; `keep` also returns the answer's body. */
  const forward = (req: IncomingMessage, res: ServerResponse, path: string, body: Buffer, keep = false): Promise<{ status: number; body: Buffer }> =>
    new Promise((resolve) => {
      const out = request({ ...target, method: req.method, path, headers: { ...req.headers, host: `127.0.0.1:${fauxqsPort}` } }, (answer) => {
        const status = answer.statusCode ?? 502;
        const kept: Buffer[] = [];
        if (keep) answer.on('data', (chunk: Buffer) => kept.push(chunk));
        res.writeHead(status, answer.headers);
        answer.pipe(res);
        answer.on('end', () => resolve({ status, body: Buffer.concat(kept) }));
        answer.on('error', () => resolve({ status: 502, body: Buffer.alloc(0) }));
      });
      out.on('error', () => {
        if (!res.headersSent) res.writeHead(502).end();
        resolve({ status: 502, body: Buffer.alloc(0) });
      });
      out.end(body);
    });

  const exists = (path: string): Promise<boolean> =>
    new Promise((resolve, reject) => {
      const out = request({ ...target, method: 'HEAD', path }, (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200);
      });
      out.on('error', reject);
      out.end();
    });

  const refuse = (res: ServerResponse, status: number, code: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  };

  /** Runs `write` for the key at decoded `path` once the writes of that key before it are done: the existence check and the write are one step. */
  const oneAtATime = (path: string, res: ServerResponse, write: () => Promise<void>) => {
    const previous = locks.get(path) ?? Promise.resolve();
    const settled = previous.then(write).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'InternalError', 'The local backup store failed.');
    });
    locks.set(path, settled);
    void settled.then(() => {
      if (locks.get(path) === settled) locks.delete(path);
    });
  };

  /** Refuses the write of an existing object at `rawPath` (412 to a conditional one, else 403); true when it did. */
  const refusedAsExisting = async (req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<boolean> => {
    if (!(await exists(rawPath).catch(() => false))) return false;
    if (req.headers['if-none-match'] === '*') refuse(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
    else refuse(res, 403, 'AccessDenied', 'A put must be conditional (If-None-Match: *); an existing object is never replaced.');
    return true;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      const mark = url.indexOf('?');
      const rawPath = mark === -1 ? url : url.slice(0, mark);
      const query = s3Query(mark === -1 ? '' : url.slice(mark + 1));
      let path: string;
      try {
        path = decodeURIComponent(rawPath);
      } catch {
        return refuse(res, 400, 'InvalidURI', 'The request path is not valid percent-encoding.');
      }
      if (!query || !path.startsWith('/')) return refuse(res, 400, 'InvalidURI', 'The request target is not an origin-form path with valid percent-encoding.');
      // `/{bucket}/{key}` as fauxqs routes it: the key is everything after the bucket's slash.
      const slash = path.indexOf('/', 1);
      const key = slash === -1 ? '' : path.slice(slash + 1);
      const method = req.method ?? 'GET';
      const counted = `${method} ${key === '' ? 'bucket' : 'object'}${query.has('list-type') ? ' list' : ''}`;
      counts[counted] = (counts[counted] ?? 0) + 1;

      const action = s3Action(method, key, query, req.headers);
      switch (action.kind) {
        case 'refuse':
          return refuse(res, action.status, action.code, action.message);
        case 'read':
          void forward(req, res, url, body);
          return;
        case 'create-bucket':
          void forward(req, res, rawPath, body);
          return;
        case 'put':
          return oneAtATime(path, res, async () => {
            if (!(await refusedAsExisting(req, res, rawPath))) await forward(req, res, rawPath, body);
          });
        case 'create-upload':
          return oneAtATime(path, res, async () => {
            if (await refusedAsExisting(req, res, rawPath)) return;
            const answer = await forward(req, res, `${rawPath}?uploads`, body, true);
            const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(answer.body.toString('utf8'))?.[1];
            if (answer.status === 200 && uploadId) uploads.set(uploadId, { path, rawPath });
          });
        case 'upload-part': {
          // A part only through the URL of the key its upload was started for.
          if (uploads.get(action.uploadId)?.path !== path) return refuse(res, 403, 'AccessDenied', 'No multipart upload of this key has that upload id.');
          void forward(req, res, `${rawPath}?partNumber=${action.partNumber}&uploadId=${encodeURIComponent(action.uploadId)}`, body);
          return;
        }
        case 'complete-upload': {
          // fauxqs completes an upload onto the key it was started for, whatever the URL: that key is checked.
          const upload = uploads.get(action.uploadId);
          if (upload?.path !== path) return refuse(res, 403, 'AccessDenied', 'No multipart upload of this key has that upload id.');
          return oneAtATime(path, res, async () => {
            if (await refusedAsExisting(req, res, upload.rawPath)) return;
            const answer = await forward(req, res, `${upload.rawPath}?uploadId=${encodeURIComponent(action.uploadId)}`, body);
            if (answer.status === 200) uploads.delete(action.uploadId);
          });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The buckets (CreateBucket is idempotent in fauxqs).
  for (const name of [bucket, BACKUP_PUBLIC_BUCKET, EXPORTS_BUCKET]) {
    const created = await fetch(`${endpoint}/${name}`, { method: 'PUT' });
    if (!created.ok) throw new Error(`The local backup bucket ${name} could not be created: ${created.status} ${await created.text()}`);
  }
  return {
    endpoint,
    bucket,
    publicBucket: BACKUP_PUBLIC_BUCKET,
    exportsBucket: EXPORTS_BUCKET,
    publicOrigin: `${endpoint}/${BACKUP_PUBLIC_BUCKET}`,
    counts: () => ({ ...counts }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
