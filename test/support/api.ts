import { request } from 'node:http';
import { inject } from 'vitest';
import { checkContract } from './contract.ts';
import { issueApiKey, revokeKey } from '../../lib/services/api-keys.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { startSession } from '../../lib/auth/session.ts';
import { addUserToOrganization } from '../../lib/services/users.ts';
import { getOrganization } from '../../lib/data/organizations.ts';
import type { Scope } from '../../lib/domain/scopes.ts';
import type { Environment } from '../../lib/domain/tenant.ts';

export const baseUrl = (): string => inject('stack').url;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * A dashboard session: sends its cookie, and on state-changing methods its CSRF proof (the
   * stack's origin and X-CSRF-Token) unless `headers` say otherwise.
   */
  session?: TestSession;
}

/** A dashboard session as `npm run admin -- session create` prints it. */
export interface TestSession {
  cookie: string;
  csrfToken: string;
  userId: string;
  email: string;
}

/** One HTTP call to the local stack's gateway. */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.session) {
    headers.cookie ??= options.session.cookie;
    if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) {
      headers.origin ??= baseUrl();
      headers['x-csrf-token'] ??= options.session.csrfToken;
    }
  }
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl()}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') && !type.includes('ndjson') && text) parsed = JSON.parse(text);
  // After a followed redirect (the resolver's 307 to a version page), the answer is the target's.
  checkContract(method, response.redirected ? response.url : `${baseUrl()}${path}`, response.status, response.headers.get('content-type') ?? '', parsed);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export interface TestOrg {
  orgId: string;
  live: string;
  test: string;
  /** A key of this organization with exactly `scopes`. */
  keyWith(scopes: Scope[], environment?: Environment): Promise<string>;
  /** A key that is revoked before it is ever used. */
  revokedKey(environment?: Environment): Promise<string>;
}

/**
 * A fresh organization for one test file, so tests never see each other's data. Its test
 * environment is empty unless `sandbox` is true: seeding the sandbox (docs/api.md#the-sandbox)
 * publishes five passport versions, work a test that reads none of them need not wait for.
 */
export async function newOrg(name = 'Test Org', options: { sandbox?: boolean } = {}): Promise<TestOrg> {
  const { organization, keys } = await createOrganization(name, { sandbox: options.sandbox ?? false });
  const orgId = organization.orgId;
  return {
    orgId,
    live: keys.live.key,
    test: keys.test.key,
    keyWith: async (scopes, environment = 'live') =>
      (await issueApiKey({ orgId, environment, scopes, name: 'scoped' })).key,
    revokedKey: async (environment = 'live') => {
      const { key, record } = await issueApiKey({ orgId, environment, scopes: ['products:read'], name: 'revoked' });
      await revokeKey(orgId, record.keyId);
      return key;
    },
  };
}

/** Asserts the API's nested error object (docs/decisions.md#errors-one-object-one-type-per-status) and returns it. */
export function expectError(response: ApiResponse, status: number, type: string, param?: string) {
  const error = (response.body as { error?: Record<string, unknown> })?.error;
  const summary = `${response.status} ${response.text}`;
  if (response.status !== status || !error || error.type !== type || error.code !== type || typeof error.message !== 'string') {
    throw new Error(`expected ${status} ${type}${param ? ` (param ${param})` : ''}, got ${summary}`);
  }
  if (param !== undefined && error.param !== param) throw new Error(`expected param ${param}, got ${summary}`);
  return error;
}

let emails = 0;
/** An email address no other test uses. */
export const uniqueEmail = (): string => `user${process.pid}.${++emails}.${Date.now()}@example.com`;

/** A dashboard session of a (new) member of `orgId`, made the way the admin CLI's `session create` makes it. */
export async function newSession(orgId: string, email = uniqueEmail()): Promise<TestSession> {
  const organization = await getOrganization(orgId);
  if (!organization) throw new Error(`no organization ${orgId}`);
  const { user } = await addUserToOrganization(organization, email);
  const session = await startSession(user, { orgId, environment: 'live' });
  return { cookie: session.cookie, csrfToken: session.csrfToken, userId: user.userId, email: user.email };
}

/** One request to the local gateway with a Host header of our choosing (fetch does not let one set it). */
export function getWithHost(path: string, host: string, headers: Record<string, string> = {}) {
  const { port } = new URL(baseUrl());
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}
