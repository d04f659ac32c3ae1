import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProductRecord } from '../../lib/domain/product.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import type { WebhookEndpointRecord } from '../../lib/domain/webhook.ts';
import { findApiKeyByHash, getApiKey, insertApiKey, listActiveApiKeys, touchApiKey, type ApiKeyRecord } from '../../lib/data/api-keys.ts';
import { idempotencyStore } from '../../lib/data/idempotency.ts';
import { getMembership, insertMembership, listMembershipsOfUser } from '../../lib/data/memberships.ts';
import { getOrganization, insertOrganization } from '../../lib/data/organizations.ts';
import { findPassportVersion, getPassportVersion, getPublicView, getVersionPage, insertPassportVersion, listPassportVersions } from '../../lib/data/passports.ts';
import { countProducts, getProduct, insertProduct, listProductsAfter, updateProduct } from '../../lib/data/products.ts';
import { getDraft, saveDraft } from '../../lib/data/drafts.ts';
import { getUnit, getUnitAt, listUnits, writeVersions, readUnits, writeUnitVersion } from '../../lib/data/items.ts';
import { publicReads } from '../../lib/data/public-reads.ts';
import { nextUnitVersion } from '../../lib/domain/unit.ts';
import { eventPut, getEvent, listEvents } from '../../lib/data/events.ts';
import { getImportChunk, getImportJob, listImportJobs } from '../../lib/data/imports.ts';
import { addToWindow } from '../../lib/data/rate-limits.ts';
import { countBatch, emptyWriteStats, queryRollups } from '../../lib/data/rollups.ts';
import { deleteSession, getSession, insertSession } from '../../lib/data/sessions.ts';
import { findSupplierIdByName, getSupplier, insertSupplier, listSuppliers } from '../../lib/data/suppliers.ts';
import { currentLabelTermSet, deleteLabelTerm, getLabelTerm, labelTermSet, listLabelTerms, putLabelTerm } from '../../lib/data/labelling-terms.ts';
import { labelTermSnapshotSk } from '../../lib/data/keys.ts';
import { getLabellingSettings, getSignOff, listSignOffs, putLabelLanguages, putSignOff } from '../../lib/data/sign-offs.ts';
import { newSignOff, signedTermsOf } from '../../lib/domain/labelling/sign-off.ts';
import { findUserIdByEmail, findUserIdByIdentity, getUser, insertUser, linkIdentity } from '../../lib/data/users.ts';
import { deleteEndpoint, getEndpointById, listEndpoints, putEndpoint } from '../../lib/data/webhook-endpoints.ts';
import {
  allocateStatusIndex, claimStatusIndex, getCurrentSigningKeyId, getRevokedBits, getSigningKey, getStatusIndex, getStoredCredential,
  listSigningKeys, putSigningKey, setCurrentSigningKey, statusBitUpdate, storeCredential,
} from '../../lib/data/credentials.ts';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getRegistration, insertRegistrationIfAbsent, listRegistrations, registrationPut, updateRegistration } from '../../lib/data/registrations.ts';
import type { RegistrationRecord } from '../../lib/domain/registry/registration.ts';
import { getTransfer, insertTransfer, listTransfers, openTransferOf, readRange } from '../../lib/data/transfers.ts';
import { batchVersionsPrefix, itemVersionsPrefix, versionPagePrefix } from '../../lib/data/keys.ts';
import type { TransferRecord } from '../../lib/domain/transfer.ts';
import {
  deleteSubscription, getDelivery, getSubscription, insertSubscription, listDeliveries, listSubscriptions, markSubscriptionHealth, putSubscription, recordAttempt,
} from '../../lib/data/event-subscriptions.ts';

/**
 * Pins the stored key formats: the keys every data function writes and reads, to the character.
 * Items already stored under these keys must stay readable, so a change here is a data migration,
 * not a refactoring (the key chart is in lib/data/keys.ts).
 */
const ddb = mockClient(DynamoDBDocumentClient);
// Webhook endpoint items seal their secrets (lib/data/secret-box.ts) with the configured key.
process.env.SECRETS_KEY ??= Buffer.alloc(32, 7).toString('base64');
beforeEach(() => {
  ddb.reset();
  ddb.onAnyCommand().resolves({});
});

type Input = Record<string, unknown>;
const keyOf = (item: unknown): string => {
  const { PK, SK } = (item ?? {}) as Input;
  return `${String(PK)} | ${String(SK)}`;
};

/** Every key the mocked client was sent, in order: items put, keys read or updated, query conditions. */
function keysSent(): string[] {
  const keys: string[] = [];
  for (const call of ddb.calls()) {
    const input = call.args[0].input as Input;
    const actions = (input.TransactItems as Input[] | undefined) ?? [{ Single: input }];
    for (const action of actions) {
      const body = Object.values(action)[0] as Input;
      if (body.Item) keys.push(keyOf(body.Item));
      if (body.Key) keys.push(keyOf(body.Key));
    }
    // BatchGetItem's keys and BatchWriteItem's puts (one table).
    for (const request of Object.values((input.RequestItems as Record<string, unknown> | undefined) ?? {})) {
      const entries: Input[] = Array.isArray(request) ? (request as Input[]) : (((request as Input).Keys as Input[] | undefined) ?? []).map((Key): Input => ({ Key }));
      for (const entry of entries) keys.push(keyOf((entry.PutRequest as Input | undefined)?.Item ?? entry.Key));
    }
    if (input.KeyConditionExpression) {
      const values = input.ExpressionAttributeValues as Input;
      keys.push(`query ${String(values[':pk'])} | ${String(values[':prefix'] ?? `${String(values[':from'])}..${String(values[':to'])}`)}`);
    }
    if (input.ExclusiveStartKey) keys.push(`after ${keyOf(input.ExclusiveStartKey)}`);
  }
  return keys;
}

const tenant: Tenant = { orgId: 'org_1', environment: 'test' };
const product: ProductRecord = {
  productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
  orgId: 'org_1',
  environment: 'test',
  gtin: '04006381333931',
  name: 'Riesling',
  category: 'wine',
  qrCodeUrl: 'http://localhost:3000/01/04006381333931',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  passportVersion: 0,
};

describe('stored keys', () => {
  it('keeps the tenant partition keys of import jobs and their chunks', async () => {
    // Act
    await getImportJob(tenant, 'imp_1');
    await getImportChunk(tenant, 'imp_1', 7);
    await listImportJobs(tenant, 10, 'imp_0');
    // Assess
    expect(keysSent()).toEqual(['T#org_1#test | IMPORT#imp_1', 'T#org_1#test | IMPORTCHUNK#imp_1#0007', 'query T#org_1#test | IMPORT#', 'after T#org_1#test | IMPORT#imp_0']);
  });

  it('keeps the tenant partition keys of products and GTIN claims', async () => {
    // Act
    await insertProduct(product);
    await getProduct(tenant, product.productId);
    await updateProduct(tenant, product, { name: 'Riesling Kabinett' }, '2026-11-02T00:00:00.000Z');
    await listProductsAfter(tenant, 10, 'p_prev');
    await countProducts({ orgId: 'org_1', environment: 'live' });
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | GTIN#04006381333931',
      'T#org_1#test | PRODUCT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      'T#org_1#test | PRODUCT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      'T#org_1#test | PRODUCT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      'T#org_1#test | GTIN#04006381333931',
      'T#org_1#test | PRODUCT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      'query T#org_1#test | PRODUCT#',
      'after T#org_1#test | PRODUCT#p_prev',
      'query T#org_1#live | PRODUCT#',
    ]);
  });

  it('keeps the passport version keys, zero-padded to six digits', async () => {
    // Prepare
    const passport = {
      ...{ passportId: 'pp_1', productId: product.productId, version: 12, status: 'published' as const, data: {}, createdAt: product.createdAt },
      ...{ publishedAt: product.createdAt, digest: `sha256:${'a'.repeat(64)}`, previousDigest: `sha256:${'b'.repeat(64)}`, gtin: product.gtin },
    };
    // Act
    await insertPassportVersion(tenant, product, passport);
    await getPassportVersion(tenant, product.productId, 3);
    await findPassportVersion(tenant, product.productId, 'pp_1');
    await listPassportVersions(tenant, product.productId, 5, 7);
    await getPublicView(tenant, '04006381333931');
    await getVersionPage(tenant, '04006381333931', 12);
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | PRODUCT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      'T#org_1#test | PASSPORT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f#000012',
      'T#org_1#test | PASSPORTID#pp_1',
      'T#org_1#test | PAGE#04006381333931#000012',
      'T#org_1#test | GTIN#04006381333931',
      'T#org_1#test | PASSPORT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f#000003',
      'T#org_1#test | PASSPORTID#pp_1',
      'query T#org_1#test | PASSPORT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f#',
      'after T#org_1#test | PASSPORT#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f#000007',
      'T#org_1#test | GTIN#04006381333931',
      'T#org_1#test | PAGE#04006381333931#000012',
      'T#org_1#test | GTIN#04006381333931', // no page item (a version published before them): the GTIN item
    ]);
  });

  it('keeps the keys of drafts and of the event log (docs/lifecycle.md)', async () => {
    // Prepare
    const draft = { productId: 'p_1', data: {}, createdAt: '2026-11-23T00:00:00.000Z', updatedAt: '2026-11-23T00:00:00.000Z' };
    const event = { id: 'evt_0mhx3k2a1bq3x9f0c7zz', type: 'product.created' as const, createdAt: draft.createdAt, actor: { type: 'system' as const, id: 'x' }, requestId: null, data: { object: {} } };
    // Act
    await getDraft(tenant, 'p_1');
    await saveDraft(tenant, draft, undefined, [eventPut(tenant, event)]);
    await getEvent(tenant, event.id);
    await listEvents(tenant, { limit: 5, startingAfter: event.id });
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | DRAFT#p_1',
      'T#org_1#test | DRAFT#p_1',
      'EVENTS#org_1#test | EVT#evt_0mhx3k2a1bq3x9f0c7zz',
      'EVENTS#org_1#test | EVT#evt_0mhx3k2a1bq3x9f0c7zz',
      'query EVENTS#org_1#test | EVT#',
      'after EVENTS#org_1#test | EVT#evt_0mhx3k2a1bq3x9f0c7zz',
    ]);
  });

  it('keeps the supplier keys, the name claim normalized', async () => {
    // Prepare
    const supplier = { supplierId: 'sup_1', orgId: 'org_1', environment: 'test' as const, name: 'Weingut  Müller ', role: 'producer' as const, createdAt: product.createdAt };
    // Act
    await insertSupplier(supplier, true);
    await insertSupplier(supplier);
    await findSupplierIdByName(tenant, ' WEINGUT Müller');
    await getSupplier(tenant, 'sup_1');
    await listSuppliers(tenant, 10, 'sup_0');
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | SUPPLIER#sup_1',
      'T#org_1#test | SUPPLIERNAME#weingut müller',
      'T#org_1#test | SUPPLIER#sup_1',
      'T#org_1#test | SUPPLIERNAME#weingut müller',
      'T#org_1#test | SUPPLIERNAME#weingut müller',
      'T#org_1#test | SUPPLIER#sup_1',
      'query T#org_1#test | SUPPLIER#',
      'after T#org_1#test | SUPPLIER#sup_0',
    ]);
  });

  it("keeps the keys of an organization's corrected legal terms in the tenant partition", async () => {
    // Prepare
    const record = { lang: 'de' as const, termKey: 'sugars' as const, text: 'davon Zucker', updatedAt: product.createdAt, updatedBy: { type: 'user' as const, id: 'usr_1' } };
    // Act
    await putLabelTerm(tenant, record, labelTermSet({}, 0));
    await getLabelTerm(tenant, 'de', 'sugars');
    await deleteLabelTerm(tenant, 'de', 'sugars', labelTermSet({ de: { sugars: 'davon Zucker' } }, 1));
    await listLabelTerms(tenant);
    await currentLabelTermSet(tenant);
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | LABELTERMSET',
      'T#org_1#test | LABELTERM#de#sugars',
      'T#org_1#test | LABELTERM#de#sugars',
      'T#org_1#test | LABELTERMSET',
      'T#org_1#test | LABELTERM#de#sugars',
      'query T#org_1#test | LABELTERM#',
      'T#org_1#test | LABELTERMSET',
      'query T#org_1#test | LABELTERM#',
    ]);
    expect(labelTermSnapshotSk('sha256:abc')).toBe('LABELTERMSET#sha256:abc');
  });

  it("keeps the keys of a language's sign-off and the labelling settings in the tenant partition", async () => {
    // Prepare
    const actor = { type: 'user' as const, id: 'usr_1' };
    const record = newSignOff('de', signedTermsOf('de'), undefined, actor, product.createdAt);
    // Act
    await putSignOff(tenant, record, []);
    await getSignOff(tenant, 'de');
    await listSignOffs(tenant);
    await putLabelLanguages(tenant, 'signed-off', product.createdAt, actor, []);
    await getLabellingSettings(tenant);
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | LABELSIGNOFF#de',
      'T#org_1#test | LABELSETTINGS',
      'T#org_1#test | LABELSIGNOFF#de',
      'query T#org_1#test | LABELSIGNOFF#',
      'T#org_1#test | LABELSETTINGS',
      'T#org_1#test | LABELSETTINGS',
    ]);
  });

  it('keeps the organization partition: organizations, API keys, members, webhook endpoints', async () => {
    // Prepare
    const key: ApiKeyRecord = {
      keyId: 'key_1', orgId: 'org_1', environment: 'live', name: 'k', scopes: [], hash: 'abc123', prefix: 'sk_live_', last4: 'AAAA', createdAt: product.createdAt,
    };
    const endpoint: WebhookEndpointRecord = {
      endpointId: 'whe_1', orgId: 'org_1', environment: 'live', source: 'custom', defaultCategory: 'wine', mapping: {}, secrets: [], createdAt: product.createdAt, updatedAt: product.createdAt,
    };
    // Act
    await insertOrganization({ orgId: 'org_1', name: 'Org', createdAt: product.createdAt });
    await getOrganization('org_1');
    await insertApiKey(key, 100);
    await findApiKeyByHash('abc123');
    await getApiKey('org_1', 'key_1');
    await listActiveApiKeys('org_1');
    await touchApiKey('org_1', 'key_1', product.createdAt);
    await insertMembership({ orgId: 'org_1', orgName: 'Org', userId: 'usr_1', email: 'a@example.com', createdAt: product.createdAt });
    await getMembership('org_1', 'usr_1');
    await listMembershipsOfUser('usr_1');
    await putEndpoint(endpoint);
    await getEndpointById('whe_1');
    await listEndpoints('org_1');
    await deleteEndpoint(endpoint);
    // Assess
    expect(keysSent()).toEqual([
      'ORG#org_1 | ORG',
      'ORG#org_1 | ORG',
      'ORG#org_1 | APIKEYS',
      'query ORG#org_1 | APIKEY#',
      'ORG#org_1 | APIKEYS',
      'APIKEY#abc123 | APIKEY',
      'ORG#org_1 | APIKEY#key_1',
      'ORG#org_1 | APIKEYS',
      'APIKEY#abc123 | APIKEY',
      'ORG#org_1 | APIKEY#key_1',
      'query ORG#org_1 | APIKEY#',
      'ORG#org_1 | APIKEY#key_1',
      'ORG#org_1 | MEMBER#usr_1',
      'USER#usr_1 | MEMBER#org_1',
      'ORG#org_1 | MEMBER#usr_1',
      'query USER#usr_1 | MEMBER#',
      'WHE#whe_1 | WHE',
      'ORG#org_1 | WHE#whe_1',
      'WHE#whe_1 | WHE',
      'query ORG#org_1 | WHE#',
      'WHE#whe_1 | WHE',
      'ORG#org_1 | WHE#whe_1',
    ]);
  });

  it('keeps the keys of users, identities, sessions and rate-limit windows', async () => {
    // Act
    await insertUser({ userId: 'usr_1', email: 'a@example.com', createdAt: product.createdAt });
    await getUser('usr_1');
    await findUserIdByEmail('a@example.com');
    await findUserIdByIdentity('https://idp.example.com', 'sub-1');
    await linkIdentity('https://idp.example.com', 'sub-1', 'usr_1', product.createdAt);
    await insertSession({ sessionId: 'ses_1', userId: 'usr_1', createdAt: product.createdAt, expiresAt: 1 });
    await getSession('ses_1', 0);
    await deleteSession('ses_1');
    await addToWindow('key_1', 1_794_000_000, 1, 1_794_000_120);
    // Assess
    expect(keysSent()).toEqual([
      'EMAIL#a@example.com | EMAIL',
      'USER#usr_1 | USER',
      'USER#usr_1 | USER',
      'EMAIL#a@example.com | EMAIL',
      'IDENTITY#https://idp.example.com#sub-1 | IDENTITY',
      'IDENTITY#https://idp.example.com#sub-1 | IDENTITY',
      'SESSION#ses_1 | SESSION',
      'SESSION#ses_1 | SESSION',
      'SESSION#ses_1 | SESSION',
      'RATELIMIT#key_1#1794000000 | RATELIMIT',
    ]);
  });

  it('keeps the scan rollup and ledger keys, and reads the day back from the sort key', async () => {
    // Prepare
    const event = {
      v: 1 as const, orgId: 'org_1', environment: 'live' as const, productId: 'prd_1', gtin: '04006381333931',
      at: '2026-11-05T10:00:00.000Z', country: 'DE', referrer: 'direct', device: 'mobile' as const,
    };
    const stats = emptyWriteStats();
    // Act
    await countBatch([{ messageId: 'msg-1', event }], stats);
    ddb.reset();
    ddb.onAnyCommand().resolves({ Items: [{ PK: 'STATS#org_1#live#prd_1', SK: 'DAY#2026-11-05', scans: 1 }] });
    const rollups = await queryRollups({ orgId: 'org_1', environment: 'live' }, 'prd_1', '2026-11-01', '2026-11-30');
    // Assess
    expect(stats.rollupUpdates).toBe(1);
    expect(keysSent()).toEqual(['query STATS#org_1#live#prd_1 | DAY#2026-11-01..DAY#2026-11-30']);
    expect(rollups.map((r) => r.day)).toEqual(['2026-11-05']);
  });

  it('keeps the ledger key of a counted scan message, its 10-second bucket, and the rollup key of its day', async () => {
    // Prepare
    const event = {
      v: 1 as const, orgId: 'org_1', environment: 'test' as const, productId: 'prd_1', gtin: '04006381333931',
      at: '2026-11-05T23:59:59.999Z', country: 'DE', referrer: 'direct', device: 'desktop' as const,
    };
    // Act
    await countBatch([{ messageId: 'msg-1', event }], emptyWriteStats());
    // Assess: the ledger bucket is read, the rollup written, then the ledger item put under a random token
    const sent = keysSent();
    expect(sent.slice(0, 2)).toEqual(['query SCANLOG#2026-11-05T23:59:50 | undefined..undefined', 'STATS#org_1#test#prd_1 | DAY#2026-11-05']);
    expect(sent[2]).toMatch(/^SCANLOG#2026-11-05T23:59:50 \| [0-9a-f-]{36}#0$/);
    expect(sent).toHaveLength(3);
  });

  it('keeps the keys of signed credentials, status lists and signing keys (docs/credentials.md)', async () => {
    // Prepare
    const publicJwk = { kty: 'EC' as const, crv: 'P-256' as const, x: 'x', y: 'y' };
    ddb.on(TransactWriteCommand).resolves({});
    ddb.onAnyCommand().resolves({ Attributes: { next: 1 } });
    // Act
    await getStoredCredential(tenant, '04006381333931', 12);
    await storeCredential(tenant, '04006381333931', 12, 'a.b.c', 'key_1');
    await getStatusIndex(tenant, product.productId);
    await allocateStatusIndex(tenant);
    await claimStatusIndex(tenant, product.productId, 0);
    await getRevokedBits(tenant, 3);
    await putSigningKey({ orgId: 'org_1', keyId: 'key_1', kind: 'local', publicJwk, createdAt: product.createdAt });
    await getSigningKey('org_1', 'key_1');
    await listSigningKeys('org_1');
    await getCurrentSigningKeyId('org_1');
    await setCurrentSigningKey('org_1', 'key_1', true);
    const bit = statusBitUpdate(tenant, 2, 5, true);
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | VC#04006381333931#000012',
      'T#org_1#test | VC#04006381333931#000012',
      'T#org_1#test | STATUSIDX#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      'T#org_1#test | STATUSLISTS',
      'T#org_1#test | STATUSIDX#01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      'T#org_1#test | STATUSLIST#3',
      'ORG#org_1 | SIGNKEY#key_1',
      'ORG#org_1 | SIGNKEY#key_1',
      'query ORG#org_1 | SIGNKEY#',
      'ORG#org_1 | SIGNKEYCURRENT',
      'ORG#org_1 | SIGNKEYCURRENT',
    ]);
    expect(keyOf(bit.Update?.Key)).toBe('T#org_1#test | STATUSLIST#2');
  });

  it('keeps one idempotency partition per tenant, the record hash as the sort key', () => {
    // Act
    const store = idempotencyStore({ orgId: 'org_1', environment: 'live' }) as unknown as { getKey(key: string): Record<string, { S: string }> };
    const key = store.getKey('hash-1');
    // Assess
    expect(`${key.PK?.S} | ${key.SK?.S}`).toBe('IDEMPOTENCY#org_1#live | hash-1');
  });

  it('keeps the event subscription keys in the tenant partition and a delivery partition per subscription', async () => {
    // Prepare
    const subscription = {
      subscriptionId: 'sub_1', orgId: 'org_1', environment: 'test' as const, url: 'https://example.com/hook', events: ['*' as const],
      status: 'enabled' as const, secrets: [{ secret: 'whsec_AAAA', createdAt: product.createdAt }], createdAt: product.createdAt, updatedAt: product.createdAt,
    };
    const attempt = { attempt: 1, at: product.createdAt, statusCode: 200, durationMs: 5, error: null, responseBody: 'ok' };
    // Act
    await insertSubscription(subscription, 20, []);
    await putSubscription(subscription, product.createdAt, []);
    await getSubscription(tenant, 'sub_1', { secrets: false });
    await listSubscriptions(tenant, { limit: 10, startingAfter: 'sub_0' });
    await markSubscriptionHealth(tenant, 'sub_1', { healthy: true });
    await deleteSubscription(tenant, 'sub_1', []);
    await recordAttempt(tenant, { deliveryId: 'del_1', subscriptionId: 'sub_1', eventId: 'evt_1', eventType: 'product.created' }, attempt, { status: 'succeeded', nextRetryAt: null });
    await getDelivery(tenant, 'sub_1', 'del_1');
    await listDeliveries(tenant, 'sub_1', { limit: 10, startingAfter: 'del_0' });
    // Assess
    expect(keysSent()).toEqual([
      // insert: the count (read, counted once by a query, written), then the subscription with the count
      'T#org_1#test | EVSUBS',
      'query T#org_1#test | EVSUB#',
      'T#org_1#test | EVSUBS',
      'T#org_1#test | EVSUB#sub_1',
      'T#org_1#test | EVSUBS',
      'T#org_1#test | EVSUB#sub_1',
      'T#org_1#test | EVSUB#sub_1',
      'query T#org_1#test | EVSUB#',
      'after T#org_1#test | EVSUB#sub_0',
      'T#org_1#test | EVSUB#sub_1',
      // delete: the count made sure of (the mock keeps nothing), then the subscription with the count
      'T#org_1#test | EVSUBS',
      'query T#org_1#test | EVSUB#',
      'T#org_1#test | EVSUBS',
      'T#org_1#test | EVSUB#sub_1',
      'T#org_1#test | EVSUBS',
      'EVDEL#org_1#test#sub_1 | DEL#del_1',
      'EVDEL#org_1#test#sub_1 | DEL#del_1',
      'query EVDEL#org_1#test#sub_1 | DEL#',
      'after EVDEL#org_1#test#sub_1 | DEL#del_0',
    ]);
  });

  it('keeps the keys of batches and items under the GTIN-14, their earlier versions beside them (docs/api.md#batches-and-items)', async () => {
    // Prepare
    const at = '2026-11-01T00:00:00.000Z';
    const v1 = nextUnitVersion({ kind: 'item', productId: product.productId, gtin: product.gtin, value: 'SN/1' }, undefined, { lot: 'L1', status: 'active', data: {} }, at);
    const v2 = nextUnitVersion({ kind: 'item', productId: product.productId, gtin: product.gtin, value: 'SN/1' }, v1, { lot: 'L1', status: 'withdrawn', data: {} }, '2026-11-02T00:00:00.000Z');
    const batch = nextUnitVersion({ kind: 'batch', productId: product.productId, gtin: product.gtin, value: 'L1' }, undefined, { status: 'active', data: {} }, at);
    // Act
    await writeUnitVersion(tenant, undefined, batch);
    await writeUnitVersion(tenant, v1, v2);
    await getUnit(tenant, 'item', product.gtin, 'SN/1');
    await listUnits(tenant, 'item', product.gtin, 10, 'SN/0');
    await listUnits(tenant, 'batch', product.gtin, 10);
    await getUnitAt(tenant, v2, Date.parse(at));
    await readUnits(tenant, 'item', product.gtin, ['SN/1']);
    await writeVersions(tenant, [{ before: v1, after: v2 }]);
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | BATCH#04006381333931#L1',
      'T#org_1#test | ITEM#04006381333931#SN/1',
      'T#org_1#test | ITEMV#04006381333931#SN/1#000001',
      'T#org_1#test | ITEM#04006381333931#SN/1',
      'query T#org_1#test | ITEM#04006381333931#',
      'after T#org_1#test | ITEM#04006381333931#SN/0',
      'query T#org_1#test | BATCH#04006381333931#',
      'query T#org_1#test | ITEMV#04006381333931#SN/1#',
      'T#org_1#test | ITEM#04006381333931#SN/1',
      // Bulk registration's conditional write of a changed item: the next version current, the one it was planned from archived.
      'T#org_1#test | ITEM#04006381333931#SN/1',
      'T#org_1#test | ITEMV#04006381333931#SN/1#000001',
    ]);
    // The resolver's reads: the GTIN item with the batch and item in one call; a record's page with its archived version.
    const batchGets: string[][] = [];
    const scan = publicReads(async () => undefined, async (keys) => (batchGets.push(keys.map(keyOf)), []));
    await scan.getScanView(tenant, product.gtin, { lot: 'L1', serial: 'SN/1' });
    await scan.getUnitPage(tenant, product.gtin, 3, { kind: 'batch', value: 'L1', unitVersion: 2 });
    expect(batchGets).toEqual([
      ['T#org_1#test | GTIN#04006381333931', 'T#org_1#test | BATCH#04006381333931#L1', 'T#org_1#test | ITEM#04006381333931#SN/1'],
      ['T#org_1#test | PAGE#04006381333931#000003', 'T#org_1#test | BATCH#04006381333931#L1', 'T#org_1#test | BATCHV#04006381333931#L1#000002'],
    ]);
  });

  it('keeps the keys of registrations in the EU registry in the tenant partition (docs/registry.md#registrations)', async () => {
    // Prepare
    const registration: RegistrationRecord = {
      registrationId: 'reg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      entry: { upi: 'https://b.example/01/04006381333931', reoId: 'GLN-4006381000016', facilitiesId: ['GLN-4006381000016'], liveURL: 'https://b.example/01/04006381333931', backupURL: 'https://c.example/x', commodityCode: '22042110', granularityLevel: 'MODEL' },
      granularity: 'MODEL', productId: product.productId, gtin: product.gtin, status: 'pending_checks', reasons: [], warnings: [], createdAt: product.createdAt, updatedAt: product.createdAt, version: 1,
    };
    // Act
    await insertRegistrationIfAbsent(tenant, registration);
    await getRegistration(tenant, registration.registrationId);
    await listRegistrations(tenant, { status: 'ready' }, { limit: 10, cursor: registration.registrationId });
    await updateRegistration(tenant, registration, { ...registration, version: 2 }, [registrationPut(tenant, registration)]);
    // Assess
    expect(keysSent()).toEqual([
      'T#org_1#test | REG#reg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      'T#org_1#test | REG#reg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      'query T#org_1#test | REG#',
      'after T#org_1#test | REG#reg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      'T#org_1#test | REG#reg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      'T#org_1#test | REG#reg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    ]);
  });
});

describe('stored keys of transfers (docs/transfers.md)', () => {
  it('keeps both copies of a transfer, the open-transfer claim and the ranges the move reads in the tenant partitions', async () => {
    // Prepare
    const record: TransferRecord = {
      transferId: 'tr_0000000000aaaaaaaaaa',
      environment: 'test',
      status: 'offered',
      productId: product.productId,
      gtin: product.gtin,
      productName: product.name,
      category: 'wine',
      from: { orgId: 'org_1' },
      to: { orgId: 'org_2' },
      createdAt: product.createdAt,
      updatedAt: product.createdAt,
    };
    // Act
    await insertTransfer(record, []);
    await getTransfer(tenant, record.transferId);
    await openTransferOf(tenant, product.productId);
    await listTransfers(tenant, ['out', 'in'], 10, record.transferId);
    await readRange(tenant, versionPagePrefix(product.gtin), undefined, 25);
    await readRange(tenant, batchVersionsPrefix(product.gtin), undefined, 25);
    await readRange(tenant, itemVersionsPrefix(product.gtin), undefined, 25);
    // Assess
    expect(keysSent()).toEqual([
      `T#org_1#test | TRANSFEROPEN#${product.productId}`,
      'T#org_1#test | TRANSFER#tr_0000000000aaaaaaaaaa',
      'T#org_2#test | TRANSFERIN#tr_0000000000aaaaaaaaaa',
      'T#org_1#test | TRANSFER#tr_0000000000aaaaaaaaaa',
      'T#org_1#test | TRANSFERIN#tr_0000000000aaaaaaaaaa',
      `T#org_1#test | TRANSFEROPEN#${product.productId}`,
      'query T#org_1#test | TRANSFER#',
      'after T#org_1#test | TRANSFER#tr_0000000000aaaaaaaaaa',
      'query T#org_1#test | TRANSFERIN#',
      'after T#org_1#test | TRANSFERIN#tr_0000000000aaaaaaaaaa',
      'query T#org_1#test | PAGE#04006381333931#',
      'query T#org_1#test | BATCHV#04006381333931#',
      'query T#org_1#test | ITEMV#04006381333931#',
    ]);
  });
});
