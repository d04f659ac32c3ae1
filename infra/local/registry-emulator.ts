import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { flattenedVerify, importJWK, type JWK } from 'jose';

/**
 * The local EU registry (docs/registry.md#the-client-and-the-emulator): a small HTTP server the
 * local stack starts beside the others, speaking the contract of the CIRPASS-2 mock registry as the
 * registry client (lib/data/registry-client.ts) does:
 * - `POST /oauth2/token`: the client-credentials grant (RFC 6749 §4.4), the client by HTTP Basic
 *   or in the form; opaque bearer tokens that expire;
 * - `POST /metadata/v1/registerDPP`: an entry, checked by rules of our own written from the mock's
 *   published schema, idempotent by `upi` (the same upi answers the same registry id), taken as
 *   `pending` and `registered` after a delay, or `rejected` with reasons for an operator identifier
 *   it was told to reject; the detached JWS in `x-jws-signature` checked against the keys made
 *   known for the entry's `reoId`, else recorded as unchecked;
 * - `GET /metadata/v1/{registryId}`: the entry's status (ours; the mock has none);
 * - `/_emulator/…`: for tests and developers: an outage switch (503), operators to reject, keys to
 *   check seals with, and what it received.
 * Everything is in memory and lost when the stack stops.
 */

export interface RegistryEmulatorOptions {
  /** How long an entry stays pending before it is registered or rejected (default 1000 ms; 0: at once). */
  registeredAfterMs?: number;
  /** Operator identifiers starting with one of these are rejected (default `EORI-XX`: XX is no country). */
  rejectReoIdPrefixes?: readonly string[];
  /** A token's life (default 300 s). */
  tokenLifetimeSeconds?: number;
  /** The one client the token endpoint knows (default `passport-service` and a random secret). */
  clientId?: string;
  clientSecret?: string;
}

export interface RegistryEmulator {
  /** The registry's base URL (REGISTRY_BASE_URL); the admin endpoints are under `/_emulator/`. */
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

export const REGISTRY_EMULATOR_CLIENT_ID = 'passport-service';
export const DEFAULT_REJECT_PREFIXES = ['EORI-XX'] as const;

/** How the JWS of a received registration was found. */
export type JwsCheck = 'verified' | 'invalid' | 'missing' | 'unchecked';

/** One request to registerDPP as the emulator saw it (GET /_emulator/received). */
export interface ReceivedRegistration {
  at: string;
  /** What it answered. */
  status: number;
  /** The body as parsed (null when it was no JSON). */
  entry: unknown;
  /** `verified` or `invalid` when a key is known for the entry's reoId, `missing` when one is but no JWS came, else `unchecked`. */
  jws: JwsCheck;
  registryId?: string;
  /** The reasons of a 400. */
  reasons?: string[];
}

const MAX_BODY_BYTES = 64 * 1024;
const MAX_RECEIVED = 20_000;
const GRANULARITIES = ['MODEL', 'BATCH', 'ITEM'];

/**
 * The entry's faults by the mock's published contract (its README and default schema): the
 * required members, `upi` 1–200 characters, `reoId` 1–50, `facilitiesId` at least one distinct
 * string of at most 250, `liveURL` and `backupURL` http(s) URLs, `commodityCode` 4 to 10 digits,
 * `granularityLevel` MODEL, BATCH or ITEM, `deactivated` (true, false or null) present exactly for
 * ITEM. Other members are let through, as the schema does. Our own code, not the mock's.
 */
export function registryEntryFaults(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['The entry must be a JSON object.'];
  const entry = value as Record<string, unknown>;
  const faults: string[] = [];
  const text = (name: string, min: number, max: number) => {
    const v = entry[name];
    if (v === undefined) return faults.push(`${name} is required.`);
    if (typeof v !== 'string') return faults.push(`${name} must be a string.`);
    if (v.length < min || v.length > max) faults.push(`${name} must be ${min} to ${max} characters long, not ${v.length}.`);
  };
  text('upi', 1, 200);
  text('reoId', 1, 50);
  const facilities = entry.facilitiesId;
  if (facilities === undefined) faults.push('facilitiesId is required.');
  else if (!Array.isArray(facilities) || facilities.length === 0) faults.push('facilitiesId must be a list of at least one facility identifier.');
  else if (facilities.some((f) => typeof f !== 'string' || f.length > 250)) faults.push('facilitiesId must hold strings of at most 250 characters.');
  else if (new Set(facilities).size !== facilities.length) faults.push('facilitiesId must not name a facility twice.');
  for (const name of ['liveURL', 'backupURL']) {
    const v = entry[name];
    if (v === undefined) faults.push(`${name} is required.`);
    else if (typeof v !== 'string' || !/^https?:\/\/[^\s]+$/.test(v) || !URL.canParse(v)) faults.push(`${name} must be an http or https URL.`);
  }
  const code = entry.commodityCode;
  if (code === undefined) faults.push('commodityCode is required.');
  else if (typeof code !== 'string' || !/^[0-9]{4,10}$/.test(code)) faults.push('commodityCode must be 4 to 10 digits.');
  const level = entry.granularityLevel;
  if (level === undefined) faults.push('granularityLevel is required.');
  else if (typeof level !== 'string' || !GRANULARITIES.includes(level)) faults.push('granularityLevel must be MODEL, BATCH or ITEM.');
  const has = Object.hasOwn(entry, 'deactivated');
  if (has && entry.deactivated !== null && typeof entry.deactivated !== 'boolean') faults.push('deactivated must be true, false or null.');
  if (level === 'ITEM' && !has) faults.push('deactivated is required for an ITEM entry.');
  if (level !== 'ITEM' && has) faults.push('deactivated is given for ITEM entries only.');
  return faults;
}

interface Stored {
  registryId: string;
  upi: string;
  reoId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  modifiedAt: string;
  status: 'pending' | 'registered' | 'rejected';
  /** When a pending entry is decided. */
  decideAt: number;
  /** Set when it is to be rejected. */
  rejectReasons?: string[];
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
};

/** The request's body up to `max` bytes; undefined when longer. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const parse = (bytes: Buffer): unknown => {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
};

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Starts the emulator on a free loopback port. */
export async function startRegistryEmulator(options: RegistryEmulatorOptions = {}): Promise<RegistryEmulator> {
  const delayMs = Math.max(0, options.registeredAfterMs ?? 1000);
  const tokenLifetime = options.tokenLifetimeSeconds ?? 300;
  const clientId = options.clientId ?? REGISTRY_EMULATOR_CLIENT_ID;
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const rejectPrefixes = [...(options.rejectReoIdPrefixes ?? DEFAULT_REJECT_PREFIXES)];

  const tokens = new Map<string, number>();
  let tokensIssued = 0;
  const byUpi = new Map<string, Stored>();
  const byId = new Map<string, Stored>();
  const received: ReceivedRegistration[] = [];
  /** Operator identifiers told to reject (POST /_emulator/reject), with their reasons. */
  const rejected = new Map<string, string[]>();
  /** Public keys by operator identifier (POST /_emulator/keys). */
  const keys = new Map<string, JWK[]>();
  const outage = { all: false, reoIds: new Set<string>() };

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const rejectReasonsOf = (reoId: string): string[] | undefined => {
    const told = rejected.get(reoId);
    if (told) return told;
    if (rejectPrefixes.some((prefix) => reoId.startsWith(prefix))) return [`The economic operator ${reoId} is not a verified economic operator of the registry.`];
    return undefined;
  };

  /** A pending entry whose time has come is decided. */
  const settle = (stored: Stored): Stored => {
    if (stored.status === 'pending' && Date.now() >= stored.decideAt) stored.status = stored.rejectReasons ? 'rejected' : 'registered';
    return stored;
  };

  const view = (stored: Stored) => {
    settle(stored);
    return {
      registryId: stored.registryId,
      registryUri: `${baseUrl}/metadata/v1/${stored.registryId}`,
      status: stored.status,
      ...(stored.status === 'rejected' && stored.rejectReasons ? { reasons: stored.rejectReasons } : {}),
      createdAt: stored.createdAt,
      modifiedAt: stored.modifiedAt,
      metadata: stored.metadata,
    };
  };

  const down = (reoId?: string): boolean => outage.all || (reoId !== undefined && outage.reoIds.has(reoId));
  const unavailable = (res: ServerResponse) => json(res, 503, { message: 'The registry is not available (emulated outage).' }, { 'retry-after': '1' });

  const bearer = (req: IncomingMessage): boolean => {
    const match = /^Bearer ([\w.~+/-]+=*)$/i.exec(req.headers.authorization ?? '');
    const expires = match ? tokens.get(match[1] as string) : undefined;
    return expires !== undefined && Date.now() < expires;
  };
  const unauthorized = (res: ServerResponse) =>
    json(res, 401, { message: 'A valid bearer token is required.' }, { 'www-authenticate': 'Bearer error="invalid_token"' });

  async function checkJws(header: string | undefined, raw: Buffer, reoId: unknown): Promise<JwsCheck> {
    const known = typeof reoId === 'string' ? keys.get(reoId) : undefined;
    if (!known?.length) return 'unchecked';
    if (!header) return 'missing';
    const parts = header.split('.');
    if (parts.length !== 3 || parts[1] !== '' || !parts[0] || !parts[2]) return 'invalid';
    let kid: unknown;
    try {
      kid = (JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { kid?: unknown }).kid;
    } catch {
      return 'invalid';
    }
    const candidates = known.filter((jwk) => jwk.kid === undefined || kid === undefined || jwk.kid === kid);
    for (const jwk of candidates) {
      try {
        // RFC 7515 Appendix F: the received body, base64url-encoded, is the payload put back.
        await flattenedVerify({ protected: parts[0], payload: raw.toString('base64url'), signature: parts[2] }, await importJWK(jwk, jwk.alg ?? 'ES256'));
        return 'verified';
      } catch {
        // the next key, if any
      }
    }
    return 'invalid';
  }

  function record(entry: ReceivedRegistration): void {
    received.push(entry);
    if (received.length > MAX_RECEIVED) received.splice(0, received.length - MAX_RECEIVED);
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (outage.all) return unavailable(res);
    const raw = await readBody(req, 8 * 1024);
    if (!raw) return json(res, 400, { error: 'invalid_request', error_description: 'The request is too large.' });
    const form = new URLSearchParams(raw.toString('utf8'));
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        id = decodeURIComponent(decoded.slice(0, colon));
        secret = decodeURIComponent(decoded.slice(colon + 1));
      }
    }
    if (!id || !secret || !sameText(id, clientId) || !sameText(secret, clientSecret)) {
      return json(res, 401, { error: 'invalid_client', error_description: 'Unknown client or wrong secret.' }, { 'www-authenticate': 'Basic realm="registry"' });
    }
    if (form.get('grant_type') !== 'client_credentials') return json(res, 400, { error: 'unsupported_grant_type' });
    const value = randomBytes(32).toString('base64url');
    tokens.set(value, Date.now() + tokenLifetime * 1000);
    tokensIssued++;
    json(res, 200, { access_token: value, token_type: 'Bearer', expires_in: tokenLifetime });
  }

  async function register(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (outage.all) return unavailable(res);
    if (!bearer(req)) return unauthorized(res);
    const at = new Date().toISOString();
    const raw = await readBody(req, MAX_BODY_BYTES);
    if (!raw) {
      record({ at, status: 413, entry: null, jws: 'unchecked' });
      return json(res, 413, { message: `The entry is larger than ${MAX_BODY_BYTES} bytes.` });
    }
    const entry = parse(raw);
    const reoId = typeof entry === 'object' && entry !== null ? (entry as { reoId?: unknown }).reoId : undefined;
    if (typeof reoId === 'string' && down(reoId)) return unavailable(res);
    const jws = await checkJws(req.headers['x-jws-signature'] as string | undefined, raw, reoId);
    if (jws === 'missing' || jws === 'invalid') {
      record({ at, status: 401, entry: entry ?? null, jws });
      return json(res, 401, { message: jws === 'missing' ? 'The x-jws-signature header is missing.' : 'The detached JWS does not verify with the operator’s keys.' });
    }
    const faults = entry === undefined ? ['The body is not JSON.'] : registryEntryFaults(entry);
    if (faults.length) {
      record({ at, status: 400, entry: entry ?? null, jws, reasons: faults });
      return json(res, 400, { message: `The DPP metadata payload is not valid: ${faults.join(' ')}`, reasons: faults });
    }
    const metadata = entry as Record<string, unknown> & { upi: string; reoId: string };
    const now = Date.now();
    let stored = byUpi.get(metadata.upi);
    if (stored) {
      // The same upi again: the same registry id, its metadata replaced (the mock's MODIFY);
      // a rejected entry sent again is checked again.
      stored.metadata = metadata;
      stored.reoId = metadata.reoId;
      stored.modifiedAt = new Date(now).toISOString();
      if (settle(stored).status === 'rejected') {
        stored.status = 'pending';
        stored.decideAt = now + delayMs;
        const reasons = rejectReasonsOf(metadata.reoId);
        if (reasons) stored.rejectReasons = reasons;
        else delete stored.rejectReasons;
      }
    } else {
      const reasons = rejectReasonsOf(metadata.reoId);
      stored = {
        registryId: randomUUID(),
        upi: metadata.upi,
        reoId: metadata.reoId,
        metadata,
        createdAt: new Date(now).toISOString(),
        modifiedAt: new Date(now).toISOString(),
        status: 'pending',
        decideAt: now + delayMs,
        ...(reasons ? { rejectReasons: reasons } : {}),
      };
      byUpi.set(stored.upi, stored);
      byId.set(stored.registryId, stored);
    }
    record({ at, status: 201, entry: metadata, jws, registryId: stored.registryId });
    json(res, 201, view(stored));
  }

  async function admin(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
    if (req.method === 'GET' && path === '/_emulator/received') {
      const reoId = query.get('reoId');
      const data = reoId ? received.filter((r) => (r.entry as { reoId?: unknown } | null)?.reoId === reoId) : received;
      return json(res, 200, { data, tokensIssued });
    }
    if (req.method !== 'POST') return json(res, 405, { message: 'Method not allowed.' });
    const body = parse((await readBody(req, MAX_BODY_BYTES)) ?? Buffer.alloc(0));
    const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const reoId = typeof input.reoId === 'string' && input.reoId ? input.reoId : undefined;
    if (path === '/_emulator/outage') {
      if (typeof input.on !== 'boolean') return json(res, 400, { message: 'Send {"on": true|false, "reoId"?: "…"}.' });
      if (reoId) {
        if (input.on) outage.reoIds.add(reoId);
        else outage.reoIds.delete(reoId);
      } else {
        outage.all = input.on;
        if (!input.on) outage.reoIds.clear();
      }
      return json(res, 200, { all: outage.all, reoIds: [...outage.reoIds] });
    }
    if (path === '/_emulator/reject') {
      if (!reoId) return json(res, 400, { message: 'Send {"reoId": "…", "reasons"?: ["…"]}.' });
      const reasons = Array.isArray(input.reasons) && input.reasons.every((r) => typeof r === 'string') && input.reasons.length ? (input.reasons as string[]) : undefined;
      rejected.set(reoId, reasons ?? [`The economic operator ${reoId} is not a verified economic operator of the registry.`]);
      return json(res, 200, { reoId, reasons: rejected.get(reoId) });
    }
    if (path === '/_emulator/keys') {
      const jwk = input.jwk as JWK | undefined;
      if (!reoId || typeof jwk !== 'object' || jwk === null || typeof jwk.kty !== 'string' || 'd' in jwk) {
        return json(res, 400, { message: 'Send {"reoId": "…", "jwk": {a public JWK, "kid"?}}.' });
      }
      try {
        await importJWK(jwk, jwk.alg ?? 'ES256');
      } catch (error) {
        return json(res, 400, { message: `Not a usable public key: ${(error as Error).message}` });
      }
      keys.set(reoId, [...(keys.get(reoId) ?? []), jwk]);
      return json(res, 200, { reoId, keys: keys.get(reoId)?.length ?? 0 });
    }
    json(res, 404, { message: 'No such emulator endpoint.' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', baseUrl);
    const path = url.pathname;
    if (path.startsWith('/_emulator/')) return admin(req, res, path, url.searchParams);
    if (req.method === 'POST' && path === '/oauth2/token') return token(req, res);
    if (req.method === 'POST' && path === '/metadata/v1/registerDPP') return register(req, res);
    const read = /^\/metadata\/v1\/([0-9a-f-]{36})$/.exec(path);
    if (req.method === 'GET' && read) {
      if (outage.all) return unavailable(res);
      if (!bearer(req)) return unauthorized(res);
      const stored = byId.get(read[1] as string);
      if (!stored) return json(res, 404, { message: `No registry entry ${read[1]}.` });
      if (down(stored.reoId)) return unavailable(res);
      return json(res, 200, view(stored));
    }
    json(res, 404, { message: 'Not found.' });
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { message: `Emulator error: ${(error as Error).message}` });
    });
  });

  return {
    baseUrl,
    tokenUrl: `${baseUrl}/oauth2/token`,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
