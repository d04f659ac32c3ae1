import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const BACKUP_BUCKET = 'passport-backup';
/** The public copy (docs/backup.md#the-public-copy): each version's public read form and pages, read unsigned. */
export const BACKUP_PUBLIC_BUCKET = 'passport-backup-public';
/** The archives of `GET /v1/exports/archive` (docs/import-export.md#leaving-the-archive), read through presigned URLs. */
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
 * The local backup store (docs/backup.md, docs/decisions.md#the-backup-store-locally): fauxqs's S3
 * emulation behind a small relay on 127.0.0.1 that adds what fauxqs does not do and the copy relies
 * on. fauxqs stores metadata and serves put, get, head and list, but ignores `If-None-Match` on a
 * put and keeps no object locks. The relay therefore:
 * - answers a put with `If-None-Match: *` on an existing key with 412 PreconditionFailed (S3's
 *   conditional write), one put per key at a time so that two racing puts cannot both win;
 * - refuses a put without that header on an existing key, and every delete, with 403 AccessDenied:
 *   it stands in for the AWS bucket's policy (puts must be conditional) and Object Lock in
 *   compliance mode, so no code path overwrites or deletes a version locally either.
 */
export async function startBackupStore(fauxqsPort: number, bucket = BACKUP_BUCKET): Promise<LocalBackupStore> {
  const counts: Record<string, number> = {};
  const locks = new Map<string, Promise<void>>();
  const target = { host: '127.0.0.1', port: fauxqsPort };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> =>
    new Promise((resolve) => {
      const out = request({ ...target, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${fauxqsPort}` } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', resolve);
        answer.on('error', () => resolve());
      });
      out.on('error', () => {
        if (!res.headersSent) res.writeHead(502).end();
        resolve();
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

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const isObject = path.split('/').filter(Boolean).length >= 2;
      const action = `${req.method ?? 'GET'} ${isObject ? 'object' : 'bucket'}${req.url?.includes('list-type') ? ' list' : ''}`;
      counts[action] = (counts[action] ?? 0) + 1;
      if (req.method === 'DELETE' || (req.method === 'POST' && req.url?.includes('delete'))) {
        return refuse(res, 403, 'AccessDenied', 'Objects of the backup store are never deleted (Object Lock, compliance mode).');
      }
      if (req.method !== 'PUT' || !isObject) {
        void forward(req, res, body);
        return;
      }
      // One put per key at a time: the existence check and the write are one step.
      const previous = locks.get(path) ?? Promise.resolve();
      const turn = previous.then(async () => {
        if (await exists(path).catch(() => false)) {
          if (req.headers['if-none-match'] === '*') return refuse(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
          return refuse(res, 403, 'AccessDenied', 'A put must be conditional (If-None-Match: *); an existing object is never replaced.');
        }
        await forward(req, res, body);
      });
      const settled = turn.catch(() => {
        if (!res.headersSent) refuse(res, 500, 'InternalError', 'The local backup store failed.');
      });
      locks.set(path, settled);
      void settled.then(() => {
        if (locks.get(path) === settled) locks.delete(path);
      });
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
