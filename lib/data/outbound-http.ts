import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, isAllowedAddress } from '../domain/outbound-address.ts';

/**
 * Outbound HTTP to event subscriptions' URLs (docs/webhooks-outbound.md#ssrf). A host name is
 * resolved here, every address it resolves to is checked, and the connection goes to the checked
 * address (a `lookup` of our own for the request), so a DNS answer that changes between the check
 * and the connection (DNS rebinding) cannot reach a private address.
 */

export class RefusedAddressError extends Error {
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, a private, loopback, link-local or reserved address.`);
    this.name = 'RefusedAddressError';
  }
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The addresses `host` resolves to, all allowed (an IP literal is its own address). Throws
 * RefusedAddressError if any one is refused (a name with one private address among public ones
 * could be made to connect there), and the resolver's error if it does not resolve.
 */
export async function allowedAddresses(host: string, allowLoopback: boolean, resolve: Resolve = systemResolve): Promise<{ address: string; family: number }[]> {
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await resolve(host);
  if (addresses.length === 0) throw new Error(`${host} has no address.`);
  for (const { address } of addresses) {
    if (!isAllowedAddress(address, allowLoopback)) throw new RefusedAddressError(host, address);
  }
  return addresses;
}

export interface PostResult {
  /** null: no answer (timeout, connection error, refused address). */
  statusCode: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * The one address a request may connect to, checked now, and a lookup that answers only it, so that
 * the request connects there whatever DNS would answer later; or why no address is allowed.
 */
async function pinnedLookup(target: URL, options: { allowLoopback: boolean; resolve?: Resolve }): Promise<{ lookup: LookupFunction } | { error: string }> {
  let pinned: { address: string; family: number };
  try {
    const addresses = await allowedAddresses(hostOf(target), options.allowLoopback, options.resolve);
    pinned = addresses[0] as { address: string; family: number };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return { lookup };
}

/** A request's failure in words: a timeout says so, anything else its own message. */
const failureOf = (error: Error, timeoutMs: number): string =>
  error.name === 'AbortError' || error.name === 'TimeoutError' ? `No answer within ${timeoutMs / 1000} s.` : error.message;

/**
 * POSTs `body` to `url` with `headers`, within `timeoutMs`, connecting only to an allowed address;
 * never follows a redirect (a 3xx is a failed delivery). Keeps the first `maxBodyBytes` of the answer.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowLoopback: boolean; maxBodyBytes: number; resolve?: Resolve },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const pin = await pinnedLookup(target, options);
  if ('error' in pin) return { statusCode: null, body: null, error: pin.error, durationMs: elapsed() };
  const requestOptions: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    lookup: pin.lookup,
    signal: AbortSignal.timeout(options.timeoutMs),
    // One connection per delivery: no pooled socket to a host that resolved elsewhere before.
    agent: false,
  };
  return new Promise<PostResult>((resolve) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, requestOptions, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < options.maxBodyBytes) chunks.push(chunk);
        size += chunk.length;
      });
      const finish = () =>
        resolve({
          statusCode: res.statusCode ?? null,
          body: Buffer.concat(chunks).subarray(0, options.maxBodyBytes).toString('utf8'),
          error: null,
          durationMs: elapsed(),
        });
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', (error: Error) => resolve({ statusCode: null, body: null, error: failureOf(error, options.timeoutMs), durationMs: elapsed() }));
    req.end(body);
  });
}

export interface GetResult {
  /** null: no answer (timeout, connection error, refused address). */
  statusCode: number | null;
  /** The first `maxBodyBytes` of the answer. */
  body: string | null;
  /** The answer was longer than `maxBodyBytes`: the rest was not read. */
  overBudget: boolean;
  error: string | null;
}

/**
 * GETs `url` within `timeoutMs`, connecting only to an allowed address (as postJson); never follows
 * a redirect. Reads at most `maxBodyBytes` of the answer and stops there (docs/registry.md#pre-checks-at-work:
 * the backup copy's check).
 */
export async function getText(url: string, headers: Record<string, string>, options: { timeoutMs: number; allowLoopback: boolean; maxBodyBytes: number; resolve?: Resolve }): Promise<GetResult> {
  const target = new URL(url);
  const pin = await pinnedLookup(target, options);
  if ('error' in pin) return { statusCode: null, body: null, overBudget: false, error: pin.error };
  const requestOptions: RequestOptions = { method: 'GET', headers, lookup: pin.lookup, signal: AbortSignal.timeout(options.timeoutMs), agent: false };
  return new Promise<GetResult>((resolve) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, requestOptions, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (overBudget: boolean) => {
        if (done) return;
        done = true;
        resolve({ statusCode: res.statusCode ?? null, body: Buffer.concat(chunks).subarray(0, options.maxBodyBytes).toString('utf8'), overBudget, error: null });
      };
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBodyBytes) {
          // Past the budget: stop reading, and close the connection.
          finish(true);
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish(false));
      res.on('error', () => finish(size > options.maxBodyBytes));
    });
    req.on('error', (error: Error) => resolve({ statusCode: null, body: null, overBudget: false, error: failureOf(error, options.timeoutMs) }));
    req.end();
  });
}
