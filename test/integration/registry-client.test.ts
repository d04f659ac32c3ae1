import { generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRegistryEmulator, type ReceivedRegistration, type RegistryEmulator } from '../../infra/local/registry-emulator.ts';
import { CirpassMockRegistryClient } from '../../lib/data/registry-client.ts';
import { localSigner, type Signer } from '../../lib/data/signers.ts';
import type { RegistryAnswer, RegistryEntry } from '../../lib/domain/registry/entry.ts';
import { registryEntryErrors } from '../support/registry-schema.ts';
import { until } from '../support/until.ts';

/**
 * The registry client against the registry emulator the shared test stack starts
 * (docs/registry.md#the-client-and-the-emulator): registered after pending, idempotent by upi, a
 * rejection with its reasons, a refused entry, an outage answered as retry and success after it,
 * the organization's seal verified, an item deactivated and reactivated; every entry the client
 * sent checked against the CIRPASS-2 mock's JSON Schema (../shared/registry/). The emulator is
 * shared with other test files: each test uses operator identifiers of its own, and the outage is
 * switched for those only. The whole registry's outage and the token's life run on an emulator of
 * this file's own.
 */

const stack = inject('stack');
const run = randomBytes(4).toString('hex').toUpperCase();
/** Operator identifiers of this run (at most 50 characters, the mock's limit). */
const reo = (name: string) => `LEI-${run}${name}`.slice(0, 50);
let serial = 0;
const entryOf = (reoId: string, granularityLevel: RegistryEntry['granularityLevel'] = 'MODEL'): RegistryEntry => {
  const upi = `https://id.example.com/01/09506000134352/10/${run}${granularityLevel === 'ITEM' ? `/21/${++serial}` : `-${++serial}`}`;
  return {
    upi,
    reoId,
    facilitiesId: ['GLN-5412345000013'],
    liveURL: upi,
    backupURL: `https://backup.example.com/${run}/${serial}.json`,
    commodityCode: '85076000',
    granularityLevel,
    ...(granularityLevel === 'ITEM' ? { deactivated: false } : {}),
  };
};

const newSeal = (keyId: string): Signer => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return localSigner(privateKey.export({ format: 'jwk' }) as JsonWebKey, keyId);
};
const seal = newSeal('key_org1');

const client = new CirpassMockRegistryClient({
  baseUrl: stack.registryBaseUrl,
  tokenUrl: stack.registryTokenUrl,
  clientId: stack.registryClientId,
  clientSecret: stack.registryClientSecret,
});

async function emulator(path: string, body?: unknown, base = stack.registryBaseUrl): Promise<any> {
  const response = await fetch(`${base}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.json();
}

const received = async (reoId: string): Promise<ReceivedRegistration[]> => ((await emulator(`/_emulator/received?reoId=${encodeURIComponent(reoId)}`)) as { data: ReceivedRegistration[] }).data;

/** Waits, up to a generous bound, until the registry says the entry is `status`. */
const statusBecomes = (registryId: string, status: 'registered' | 'rejected') =>
  until(
    `registry entry ${registryId} ${status}`,
    async () => {
      const answer = await client.status(registryId);
      return answer.outcome === 'accepted' && answer.status === status ? answer : undefined;
    },
    30_000,
    100,
  );

const accepted = (answer: RegistryAnswer) => {
  expect(answer.outcome).toBe('accepted');
  return answer as Extract<RegistryAnswer, { outcome: 'accepted' }>;
};

/** Every operator identifier a test used: afterAll checks what the emulator received of them. */
const used = new Set<string>();
const use = (name: string) => {
  const reoId = reo(name);
  used.add(reoId);
  return reoId;
};

describe('the registry client against the local registry emulator', () => {
  it('registers a model as pending, then registered after the emulator’s delay; the same upi again answers the same registry id', async () => {
    // Prepare
    const entry = entryOf(use('A'));
    // Act
    const first = accepted(await client.register(entry, seal));
    const registered = await statusBecomes(first.registryId, 'registered');
    const again = accepted(await client.register(entry, seal));
    // Assess
    expect(first.status).toBe('pending');
    expect(first.registryUri).toBe(`${stack.registryBaseUrl}/metadata/v1/${first.registryId}`);
    expect(registered).toMatchObject({ outcome: 'accepted', registryId: first.registryId, status: 'registered' });
    expect(again).toMatchObject({ registryId: first.registryId, status: 'registered' });
  });

  it('an operator the registry rejects: accepted as pending, then rejected with the registry’s reasons', async () => {
    // Prepare: the emulator is told to reject this operator
    const reoId = use('REJ');
    await emulator('/_emulator/reject', { reoId, reasons: ['The economic operator is not verified in the registry.'] });
    // Act
    const answer = accepted(await client.register(entryOf(reoId), seal));
    const rejected = await statusBecomes(answer.registryId, 'rejected');
    // Assess
    expect(answer.status).toBe('pending');
    expect(rejected).toEqual({
      outcome: 'accepted',
      registryId: answer.registryId,
      registryUri: answer.registryUri,
      status: 'rejected',
      reasons: ['The economic operator is not verified in the registry.'],
    });
  });

  it('an entry against the registry’s rules is refused with a reason for each fault, and nothing is stored', async () => {
    // Prepare: a 2-digit commodity code, and an item without deactivated
    const reoId = use('BAD');
    const { deactivated: _, ...item } = entryOf(reoId, 'ITEM');
    const bad = { ...item, commodityCode: '85' } as RegistryEntry;
    // Act
    const answer = await client.register(bad, seal);
    // Assess
    expect(answer).toEqual({ outcome: 'refused', reasons: ['commodityCode must be 4 to 10 digits.', 'deactivated is required for an ITEM entry.'] });
    expect((await received(reoId)).map((r) => [r.status, r.registryId])).toEqual([[400, undefined]]);
  });

  it('an outage answers retry (with Retry-After) for registrations and reads, and the same entry is registered once it is over', async () => {
    // Prepare: one entry registered before the outage, for the read
    const reoId = use('OUT');
    const before = accepted(await client.register(entryOf(reoId), seal));
    const entry = entryOf(reoId);
    await emulator('/_emulator/outage', { on: true, reoId });
    // Act
    const during = await client.register(entry, seal);
    const readDuring = await client.status(before.registryId);
    await emulator('/_emulator/outage', { on: false, reoId });
    const after = await client.register(entry, seal);
    // Assess
    expect(during).toMatchObject({ outcome: 'retry', retryAfterSeconds: 1 });
    expect((during as { reason: string }).reason).toMatch(/HTTP 503/);
    expect(readDuring).toMatchObject({ outcome: 'retry', retryAfterSeconds: 1 });
    expect(accepted(after).status).toBe('pending');
    // one registration of the entry stored: the refused try left nothing
    const stored = (await received(reoId)).filter((r) => r.status === 201).map((r) => (r.entry as RegistryEntry).upi);
    expect(stored.filter((upi) => upi === entry.upi)).toHaveLength(1);
  });

  it('the organization’s seal: verified with its key made known, refused (retry) when another key signed, unchecked for an operator without keys', async () => {
    // Prepare: the organization's public key made known to the emulator for its operator identifier
    const reoId = use('JWS');
    await emulator('/_emulator/keys', { reoId, jwk: { ...(await seal.publicJwk()), kid: seal.keyId, alg: 'ES256' } });
    const other = newSeal('key_other');
    const plain = use('PLAIN');
    // Act
    const signed = await client.register(entryOf(reoId), seal);
    const forged = await client.register(entryOf(reoId), other);
    const unchecked = await client.register(entryOf(plain), seal);
    // Assess
    expect(accepted(signed).status).toBe('pending');
    expect(forged).toMatchObject({ outcome: 'retry' });
    expect((forged as { reason: string }).reason).toMatch(/HTTP 401.*does not verify/);
    expect(accepted(unchecked).status).toBe('pending');
    expect((await received(reoId)).map((r) => [r.status, r.jws])).toEqual([
      [201, 'verified'],
      [401, 'invalid'],
    ]);
    expect((await received(plain)).map((r) => r.jws)).toEqual(['unchecked']);
  });

  it('deactivates and reactivates an item under the same registry id', async () => {
    // Prepare
    const reoId = use('ITEM');
    const item = entryOf(reoId, 'ITEM');
    const first = accepted(await client.register(item, seal));
    // Act
    const off = accepted(await client.setDeactivated(item, true, seal));
    const on = accepted(await client.setDeactivated(item, false, seal));
    // Assess
    expect([off.registryId, on.registryId]).toEqual([first.registryId, first.registryId]);
    expect((await received(reoId)).map((r) => (r.entry as RegistryEntry).deactivated)).toEqual([false, true, false]);
  });

  afterAll(async () => {
    // Every entry the client sent is checked against the mock's own schema: those the emulator took
    // are valid by it, and the one it refused for its rules is not (the emulator and the schema agree).
    let checked = 0;
    for (const reoId of used) {
      for (const record of await received(reoId)) {
        const errors = registryEntryErrors(record.entry);
        expect({ reoId, status: record.status, errors }).toMatchObject({ errors: record.status === 400 ? expect.arrayContaining([expect.any(String)]) : [] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });
});

describe('a registry emulator of this file’s own', () => {
  let own: RegistryEmulator;
  beforeAll(async () => {
    own = await startRegistryEmulator({ registeredAfterMs: 0, tokenLifetimeSeconds: 2 });
  });
  afterAll(() => own.stop());

  it('down as a whole (token endpoint too): every request answers retry; back up, the entry is registered at once (delay 0)', async () => {
    // Prepare
    const ownClient = new CirpassMockRegistryClient({ baseUrl: own.baseUrl, tokenUrl: own.tokenUrl, clientId: own.clientId, clientSecret: own.clientSecret });
    const entry = entryOf(reo('WHOLE'));
    await emulator('/_emulator/outage', { on: true }, own.baseUrl);
    // Act
    const during = await ownClient.register(entry, seal);
    await emulator('/_emulator/outage', { on: false }, own.baseUrl);
    const after = await ownClient.register(entry, seal);
    // Assess
    expect(during).toMatchObject({ outcome: 'retry', retryAfterSeconds: 1 });
    expect((during as { reason: string }).reason).toMatch(/token endpoint answered HTTP 503/);
    expect(after).toMatchObject({ outcome: 'accepted', status: 'registered' });
  });

  it('a wrong client secret gets no token, and the registration waits (retry), never refused', async () => {
    // Prepare
    const wrong = new CirpassMockRegistryClient({ baseUrl: own.baseUrl, tokenUrl: own.tokenUrl, clientId: own.clientId, clientSecret: `${own.clientSecret}x` });
    // Act
    const answer = await wrong.register(entryOf(reo('WRONG')), seal);
    // Assess
    expect(answer).toEqual({ outcome: 'retry', reason: 'The registry’s token endpoint answered HTTP 401: Unknown client or wrong secret.' });
  });

  it('a token is kept while it lives and a new one asked for when it is about to expire', async () => {
    // Prepare: tokens of 2 s are kept for 1 s (half their life)
    const ownClient = new CirpassMockRegistryClient({ baseUrl: own.baseUrl, tokenUrl: own.tokenUrl, clientId: own.clientId, clientSecret: own.clientSecret });
    const issued = async () => ((await emulator('/_emulator/received', undefined, own.baseUrl)) as { tokensIssued: number }).tokensIssued;
    const start = await issued();
    // Act
    const a = accepted(await ownClient.register(entryOf(reo('TOK')), seal));
    await ownClient.status(a.registryId);
    const afterTwo = await issued();
    const renewed = await until(
      'a new token once the first is about to expire',
      async () => {
        accepted(await ownClient.status(a.registryId));
        const now = await issued();
        return now > afterTwo ? now : undefined;
      },
      30_000,
      200,
    );
    // Assess
    expect(afterTwo - start).toBe(1);
    expect(renewed - start).toBe(2);
  });
});
