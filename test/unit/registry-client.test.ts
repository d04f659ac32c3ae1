import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { flattenedVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { registryEntryFaults } from '../../infra/local/registry-emulator.ts';
import { loadConfig, parseRegistryEndpoint } from '../../lib/config.ts';
import { CirpassMockRegistryClient, JWS_HEADER, REGISTRY_BUDGETS, retryAfterSeconds } from '../../lib/data/registry-client.ts';
import { localSigner } from '../../lib/data/signers.ts';
import type { RegistryEntry } from '../../lib/domain/registry/entry.ts';
import { registryEntryErrors } from '../support/registry-schema.ts';

/**
 * The registry client (docs/registry.md#the-client-and-the-emulator) against a fake registry: how
 * each answer is mapped (accepted, refused, retry), the token kept until shortly before it expires,
 * the detached JWS over the body, the body and time budgets; the registry settings; and the
 * emulator's entry rules checked against the mock's own JSON Schema.
 */

const BASE = 'https://registry.example/api';
const TOKEN_URL = 'https://idp.example/token';
const MODEL: RegistryEntry = {
  upi: 'https://id.example.com/01/09506000134352',
  reoId: 'LEI-529900T8BM49AURSDO55',
  facilitiesId: ['GLN-5412345000013'],
  liveURL: 'https://id.example.com/01/09506000134352',
  backupURL: 'https://backup.example.com/01/09506000134352.json',
  commodityCode: '850760',
  granularityLevel: 'MODEL',
};
const ITEM: RegistryEntry = { ...MODEL, upi: `${MODEL.upi}/21/SN1`, granularityLevel: 'ITEM', deactivated: false };

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const privateJwk = privateKey.export({ format: 'jwk' }) as JsonWebKey;
const seal = localSigner(privateJwk, 'key_test1');

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A fake registry and token endpoint: `answer` says what the registry answers to each request. */
function fakeRegistry(answer: (seen: Seen, index: number) => Response | Promise<Response>, tokenAnswer?: () => Response) {
  const seen: Seen[] = [];
  const tokenRequests: Seen[] = [];
  let issued = 0;
  const fetchFake = (async (input: string | URL, init?: RequestInit) => {
    const request: Seen = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === 'string' ? init.body : '',
    };
    if (request.url === TOKEN_URL) {
      tokenRequests.push(request);
      if (tokenAnswer) return tokenAnswer();
      issued++;
      return Response.json({ access_token: `token-${issued}`, token_type: 'Bearer', expires_in: 300 });
    }
    seen.push(request);
    return answer(request, seen.length - 1);
  }) as typeof fetch;
  return { fetch: fetchFake, seen, tokenRequests };
}

const clientWith = (fetchFake: typeof fetch, extra: Partial<ConstructorParameters<typeof CirpassMockRegistryClient>[0]> = {}) =>
  new CirpassMockRegistryClient({ baseUrl: BASE, tokenUrl: TOKEN_URL, clientId: 'passport service', clientSecret: 's3cret:x', fetch: fetchFake, ...extra });

describe('the registry client maps the registry’s answers', () => {
  it('sends the entry as JSON to registerDPP with a bearer token and a detached JWS the organization’s key verifies, and reads a pending answer', async () => {
    // Prepare
    const registry = fakeRegistry(() =>
      Response.json({ registryId: '7f3e9c2a-5b8d-4e1f-a6c3-9d4b2e7f8a1c', registryUri: `${BASE}/metadata/v1/7f3e9c2a`, status: 'pending', metadata: MODEL }, { status: 201 }),
    );
    // Act
    const answer = await clientWith(registry.fetch).register(MODEL, seal);
    // Assess: the answer
    expect(answer).toEqual({ outcome: 'accepted', registryId: '7f3e9c2a-5b8d-4e1f-a6c3-9d4b2e7f8a1c', registryUri: `${BASE}/metadata/v1/7f3e9c2a`, status: 'pending' });
    // the request
    const [sent] = registry.seen;
    expect(sent?.url).toBe(`${BASE}/metadata/v1/registerDPP`);
    expect(sent?.method).toBe('POST');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.authorization).toBe('Bearer token-1');
    expect(JSON.parse(sent?.body ?? '')).toEqual(MODEL);
    // the token request: client credentials, the client by HTTP Basic with its id and secret form-encoded
    const [tokenRequest] = registry.tokenRequests;
    expect(tokenRequest?.body).toBe('grant_type=client_credentials');
    expect(Buffer.from((tokenRequest?.headers.authorization ?? '').replace('Basic ', ''), 'base64').toString()).toBe('passport%20service:s3cret%3Ax');
    // the detached JWS: header..signature, verifying over the body with the organization's public key, naming its key
    const jws = sent?.headers[JWS_HEADER] ?? '';
    const [header, payload, signature] = jws.split('.');
    expect(payload).toBe('');
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toEqual({ alg: 'ES256', kid: 'key_test1' });
    const key = await importJWK({ ...(await seal.publicJwk()) }, 'ES256');
    await expect(flattenedVerify({ protected: header ?? '', payload: Buffer.from(sent?.body ?? '').toString('base64url'), signature: signature ?? '' }, key)).resolves.toBeDefined();
    // and a body changed by one character does not verify with it
    const tampered = (sent?.body ?? '').replace('850760', '850761');
    await expect(flattenedVerify({ protected: header ?? '', payload: Buffer.from(tampered).toString('base64url'), signature: signature ?? '' }, key)).rejects.toThrow();
  });

  it('reads the mock’s own answer (a registry id and the metadata, no status) as registered, and a rejection with its reasons', async () => {
    // Prepare
    const answers = [
      Response.json({ registryId: 'r-1', createdAt: '2026-07-20T10:00:00', metadata: MODEL }, { status: 201 }),
      Response.json({ registryId: 'r-2', status: 'REJECTED', reasons: ['The backup copy does not answer.', 42] }, { status: 200 }),
      Response.json({ registryId: 'r-3', status: 'rejected' }, { status: 200 }),
    ];
    const registry = fakeRegistry((_, i) => answers[i] as Response);
    const client = clientWith(registry.fetch);
    // Act
    const mock = await client.register(MODEL, seal);
    const rejected = await client.status('r-2');
    const rejectedWithout = await client.status('r-3');
    // Assess
    expect(mock).toEqual({ outcome: 'accepted', registryId: 'r-1', status: 'registered' });
    expect(rejected).toEqual({ outcome: 'accepted', registryId: 'r-2', status: 'rejected', reasons: ['The backup copy does not answer.'] });
    expect(rejectedWithout).toMatchObject({ status: 'rejected', reasons: ['The registry rejected the entry and gave no reason.'] });
    expect(registry.seen[1]?.url).toBe(`${BASE}/metadata/v1/r-2`);
    expect(registry.seen[1]?.method).toBe('GET');
    expect(registry.seen[1]?.headers[JWS_HEADER]).toBeUndefined();
  });

  it('refuses for good on a 4xx with the registry’s reasons: its list, the mock’s message, or the status when it says nothing', async () => {
    // Prepare
    const answers = [
      Response.json({ message: 'invalid', reasons: ['commodityCode must be 4 to 10 digits.', 'upi is required.'] }, { status: 400 }),
      Response.json({ message: 'The DPP metadata payload is not valid: $.commodityCode: does not match the regex pattern' }, { status: 400 }),
      Response.json({ valid: false, invalidProperties: [{ property: 'liveURL', message: 'does not resolve' }] }, { status: 400 }),
      new Response('', { status: 422 }),
      Response.json({ message: `x${'y'.repeat(5_000)}`, reasons: Array.from({ length: 50 }, (_, i) => `reason ${i}`) }, { status: 400 }),
    ];
    const registry = fakeRegistry((_, i) => answers[i] as Response);
    const client = clientWith(registry.fetch);
    // Act
    const results = [];
    for (let i = 0; i < answers.length; i++) results.push(await client.register(MODEL, seal));
    // Assess
    expect(results[0]).toEqual({ outcome: 'refused', reasons: ['commodityCode must be 4 to 10 digits.', 'upi is required.'] });
    expect(results[1]).toEqual({ outcome: 'refused', reasons: ['The DPP metadata payload is not valid: $.commodityCode: does not match the regex pattern'] });
    expect(results[2]).toEqual({ outcome: 'refused', reasons: ['liveURL: does not resolve'] });
    expect(results[3]).toEqual({ outcome: 'refused', reasons: ['The registry refused the entry (HTTP 422) and gave no reason.'] });
    // a registry that says too much is kept within the budget
    expect(results[4]).toMatchObject({ outcome: 'refused' });
    expect((results[4] as { reasons: string[] }).reasons).toHaveLength(REGISTRY_BUDGETS.maxReasons);
  });

  it('answers retry on 503, 429, 500, 408, with the Retry-After it was given in seconds or as a date', async () => {
    // Prepare
    const now = Date.parse('2026-09-01T12:00:00Z');
    const answers = [
      Response.json({ message: 'maintenance' }, { status: 503, headers: { 'retry-after': '7' } }),
      new Response('', { status: 429, headers: { 'retry-after': 'Tue, 01 Sep 2026 12:01:30 GMT' } }),
      new Response('oops', { status: 500 }),
      new Response('', { status: 408 }),
    ];
    const registry = fakeRegistry((_, i) => answers[i] as Response);
    const client = clientWith(registry.fetch, { now: () => now });
    // Act
    const results = [];
    for (let i = 0; i < answers.length; i++) results.push(await client.register(MODEL, seal));
    // Assess
    expect(results[0]).toEqual({ outcome: 'retry', retryAfterSeconds: 7, reason: 'The registry did not take the request now (HTTP 503): maintenance' });
    expect(results[1]).toMatchObject({ outcome: 'retry', retryAfterSeconds: 90 });
    expect(results[2]).toEqual({ outcome: 'retry', reason: 'The registry did not take the request now (HTTP 500).' });
    expect(results[3]).toMatchObject({ outcome: 'retry' });
    expect(retryAfterSeconds('99999999999', now)).toBe(REGISTRY_BUDGETS.maxRetryAfterSeconds);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('Tue, 01 Sep 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('answers retry, never refused, when the registry cannot be reached or does not answer in time', async () => {
    // Prepare: a connection refused, and a registry that never answers (the request ends only when aborted)
    const refused = clientWith((async (input: string | URL) => {
      if (String(input) === TOKEN_URL) return Response.json({ access_token: 't', token_type: 'Bearer', expires_in: 300 });
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
    }) as typeof fetch);
    const silent = clientWith(
      ((input: string | URL, init?: RequestInit) => {
        if (String(input) === TOKEN_URL) return Promise.resolve(Response.json({ access_token: 't', token_type: 'Bearer', expires_in: 300 }));
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
      }) as typeof fetch,
      { timeoutMs: 50 },
    );
    // Act
    const a = await refused.register(MODEL, seal);
    const started = Date.now();
    const b = await silent.register(MODEL, seal);
    // Assess
    expect(a).toEqual({ outcome: 'retry', reason: 'The registry could not be reached (ECONNREFUSED).' });
    expect(b).toEqual({ outcome: 'retry', reason: 'The registry gave no answer within 0.05 s.' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('attack: an answer one byte over the body budget is not read and answers retry; one at the budget is read', async () => {
    // Prepare: bodies streamed in chunks without a Content-Length, as a registry might send them
    const max = 1_024;
    const body = (size: number) => {
      const json = JSON.stringify({ registryId: 'r-1', status: 'pending', padding: '' });
      const text = json.replace('"padding":""', `"padding":"${'x'.repeat(size - json.length)}"`);
      const bytes = Buffer.from(text);
      let offset = 0;
      let pulled = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + 100)));
          offset += 100;
        },
      });
      return { response: new Response(stream, { status: 201 }), pulled: () => pulled, size: bytes.length };
    };
    const over = body(max + 1);
    const at = body(max);
    const declared = new Response('{}', { status: 201, headers: { 'content-length': String(max + 1) } });
    const answers = [over.response, at.response, declared];
    const registry = fakeRegistry((_, i) => answers[i] as Response);
    const client = clientWith(registry.fetch, { maxBodyBytes: max });
    // Act
    const overAnswer = await client.register(MODEL, seal);
    const atAnswer = await client.register(MODEL, seal);
    const declaredAnswer = await client.register(MODEL, seal);
    // Assess
    expect(over.size).toBe(max + 1);
    expect(overAnswer).toEqual({ outcome: 'retry', reason: `The registry answered HTTP 201 with more than ${max} bytes, past the budget; not read.` });
    expect(over.pulled()).toBeLessThanOrEqual(Math.ceil((max + 1) / 100) + 1);
    expect(atAnswer).toEqual({ outcome: 'accepted', registryId: 'r-1', status: 'pending' });
    expect(declaredAnswer).toMatchObject({ outcome: 'retry' });
  });
});

describe('the registry client’s token', () => {
  it('is asked once for concurrent and later requests, and again only shortly before it expires', async () => {
    // Prepare: a clock the test moves; tokens live 300 s
    let now = 1_000_000;
    const registry = fakeRegistry(() => Response.json({ registryId: 'r-1', status: 'registered' }, { status: 201 }));
    const client = clientWith(registry.fetch, { now: () => now });
    // Act: three at once, one at 239 s, one at 241 s (past 300 s less the minute's margin)
    await Promise.all([client.register(MODEL, seal), client.register(MODEL, seal), client.status('r-1')]);
    now += 239_000;
    await client.status('r-1');
    const before = registry.tokenRequests.length;
    now += 2_000;
    await client.status('r-1');
    // Assess
    expect(before).toBe(1);
    expect(registry.tokenRequests).toHaveLength(2);
    expect(registry.seen.map((s) => s.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
  });

  it('is dropped on a 401 that challenges it and the request made once more with a new one; a second 401 answers retry, not refused', async () => {
    // Prepare: the first token is refused, the second taken; then every token refused
    let refuseAll = false;
    const challenge = { 'www-authenticate': 'Bearer error="invalid_token"' };
    const registry = fakeRegistry((seen) =>
      refuseAll || seen.headers.authorization === 'Bearer token-1'
        ? Response.json({ message: 'invalid token' }, { status: 401, headers: challenge })
        : Response.json({ registryId: 'r-1', status: 'pending' }, { status: 201 }),
    );
    const client = clientWith(registry.fetch);
    // Act
    const first = await client.register(MODEL, seal);
    refuseAll = true;
    const second = await client.register(MODEL, seal);
    // Assess
    expect(first).toMatchObject({ outcome: 'accepted', registryId: 'r-1' });
    expect(registry.seen[1]?.headers.authorization).toBe('Bearer token-2');
    // the JWS is the same on both tries: signed once
    expect(registry.seen[1]?.headers[JWS_HEADER]).toBe(registry.seen[0]?.headers[JWS_HEADER]);
    expect(second).toEqual({ outcome: 'retry', reason: 'The registry refused our credentials or the organization\'s seal (HTTP 401): invalid token' });
    // token-1 refused, token-2 taken then refused, token-3 refused: never more than one new token a request
    expect(registry.tokenRequests).toHaveLength(3);
  });

  it('is kept on a 401 without a bearer challenge (the seal refused): no new token, retry', async () => {
    // Prepare
    const registry = fakeRegistry(() => Response.json({ message: 'JWS processing error: Invalid signature' }, { status: 401 }));
    const client = clientWith(registry.fetch);
    // Act
    const answer = await client.register(MODEL, seal);
    // Assess
    expect(answer).toEqual({ outcome: 'retry', reason: 'The registry refused our credentials or the organization\'s seal (HTTP 401): JWS processing error: Invalid signature' });
    expect(registry.seen).toHaveLength(1);
    expect(registry.tokenRequests).toHaveLength(1);
  });

  it('a token endpoint that refuses our client or is down makes the registration wait (retry), never refused', async () => {
    // Prepare
    const refusing = fakeRegistry(
      () => Response.json({ registryId: 'never' }, { status: 201 }),
      () => Response.json({ error: 'invalid_client', error_description: 'Unknown client.' }, { status: 401 }),
    );
    const down = fakeRegistry(
      () => Response.json({ registryId: 'never' }, { status: 201 }),
      () => new Response('', { status: 503, headers: { 'retry-after': '30' } }),
    );
    // Act
    const a = await clientWith(refusing.fetch).register(MODEL, seal);
    const b = await clientWith(down.fetch).register(MODEL, seal);
    // Assess
    expect(a).toEqual({ outcome: 'retry', reason: 'The registry’s token endpoint answered HTTP 401: Unknown client.' });
    expect(b).toEqual({ outcome: 'retry', retryAfterSeconds: 30, reason: 'The registry’s token endpoint answered HTTP 503.' });
    expect(refusing.seen).toHaveLength(0);
  });
});

describe('deactivating and reactivating', () => {
  it('sends an ITEM entry again with deactivated true or false, and refuses to deactivate a model', async () => {
    // Prepare
    const registry = fakeRegistry(() => Response.json({ registryId: 'r-1', status: 'registered' }, { status: 201 }));
    const client = clientWith(registry.fetch);
    // Act
    await client.setDeactivated(ITEM, true, seal);
    await client.setDeactivated({ ...ITEM, deactivated: true }, false, seal);
    // Assess
    expect(registry.seen.map((s) => (JSON.parse(s.body) as RegistryEntry).deactivated)).toEqual([true, false]);
    expect(registry.seen.every((s) => s.url === `${BASE}/metadata/v1/registerDPP`)).toBe(true);
    expect(() => client.setDeactivated(MODEL, true, seal)).toThrow(/Only an ITEM entry/);
  });
});

describe('the registry settings', () => {
  const full = {
    REGISTRY_BASE_URL: 'https://registry.example/',
    REGISTRY_TOKEN_URL: 'https://idp.example/token',
    REGISTRY_CLIENT_ID: 'svc',
    REGISTRY_CLIENT_SECRET_ARN: 'arn:aws:secretsmanager:eu-central-1:111122223333:secret:registry',
    REGISTRY_ACCEPTANCE_BASE_URL: 'http://127.0.0.1:4000',
    REGISTRY_ACCEPTANCE_TOKEN_URL: 'http://127.0.0.1:4000/oauth2/token',
    REGISTRY_ACCEPTANCE_CLIENT_ID: 'svc-test',
    REGISTRY_ACCEPTANCE_CLIENT_SECRET: 'local',
  };

  it('reads the production registry for live and the acceptance registry for test; none when unset', () => {
    // Act
    const both = loadConfig(full).registry;
    const none = loadConfig({}).registry;
    // Assess
    expect(both.live).toEqual({ baseUrl: 'https://registry.example', tokenUrl: 'https://idp.example/token', clientId: 'svc', clientSecretArn: full.REGISTRY_CLIENT_SECRET_ARN });
    expect(both.test).toEqual({ baseUrl: 'http://127.0.0.1:4000', tokenUrl: 'http://127.0.0.1:4000/oauth2/token', clientId: 'svc-test', clientSecret: 'local' });
    expect(none).toEqual({ live: undefined, test: undefined });
  });

  it('refuses a half-configured registry, two secrets, and plain http off this machine, naming the variable', () => {
    expect(() => parseRegistryEndpoint({ REGISTRY_BASE_URL: 'https://r.example' }, 'REGISTRY_')).toThrow(/REGISTRY_TOKEN_URL must be set/);
    expect(() => parseRegistryEndpoint({ ...full, REGISTRY_CLIENT_SECRET: 'x' }, 'REGISTRY_')).toThrow(/exactly one of REGISTRY_CLIENT_SECRET and REGISTRY_CLIENT_SECRET_ARN/);
    expect(() => parseRegistryEndpoint({ ...full, REGISTRY_BASE_URL: 'http://registry.example' }, 'REGISTRY_')).toThrow(/REGISTRY_BASE_URL must be an https URL/);
    expect(() => parseRegistryEndpoint({ ...full, REGISTRY_ACCEPTANCE_CLIENT_SECRET: undefined }, 'REGISTRY_ACCEPTANCE_')).toThrow(/exactly one/);
  });
});

describe('the emulator’s entry rules agree with the mock’s JSON Schema', () => {
  const { deactivated: _, ...itemWithout } = ITEM;
  const cases: Array<[string, unknown]> = [
    ['a model', MODEL],
    ['an item', ITEM],
    ['an item deactivated null', { ...ITEM, deactivated: null }],
    ['an item without deactivated', itemWithout],
    ['a model with deactivated', { ...MODEL, deactivated: false }],
    ['a 3-digit commodity code', { ...MODEL, commodityCode: '850' }],
    ['an 11-digit commodity code', { ...MODEL, commodityCode: '85076000001' }],
    ['a 10-digit commodity code', { ...MODEL, commodityCode: '8507600000' }],
    ['a granularity in lower case', { ...MODEL, granularityLevel: 'model' }],
    ['a upi of 200 characters', { ...MODEL, upi: 'u'.repeat(200) }],
    ['a upi of 201 characters', { ...MODEL, upi: 'u'.repeat(201) }],
    ['a reoId of 51 characters', { ...MODEL, reoId: 'L'.repeat(51) }],
    ['no facility', { ...MODEL, facilitiesId: [] }],
    ['a facility twice', { ...MODEL, facilitiesId: ['GLN-1', 'GLN-1'] }],
    ['an ftp backup URL', { ...MODEL, backupURL: 'ftp://backup.example/x' }],
    ['a plain http live URL', { ...MODEL, liveURL: 'http://id.example.com/01/1' }],
    ['no backup URL', { ...MODEL, backupURL: undefined }],
    ['an array', [MODEL]],
  ];

  it.each(cases)('%s: valid by both or by neither', (_name, entry) => {
    // Prepare: undefined members dropped, as JSON drops them
    const sent = JSON.parse(JSON.stringify(entry)) as unknown;
    // Act
    const ours = registryEntryFaults(sent);
    const theirs = registryEntryErrors(sent).length === 0;
    // Assess
    expect(ours.length === 0).toBe(theirs);
  });
});
