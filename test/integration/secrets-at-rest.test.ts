import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/data/client.ts';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { snapshotOrg } from '../support/snapshot.ts';

/** docs/security.md, finding 3: no table item holds an API key or a webhook signing secret in plaintext. */

const sample = readFileSync(new URL('../../events/webhooks/headless-cms-product.json', import.meta.url), 'utf8');
const signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function deliver(endpointId: string, secret: string): Promise<number> {
  const doc = JSON.parse(sample);
  doc.entity.attributes.barcode[0].barcode_number = uniqueGtin13();
  const body = JSON.stringify(doc);
  const response = await fetch(`${baseUrl()}/v1/webhooks/ingest?endpoint=${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signature(secret, body) },
    body,
  });
  await response.body?.cancel();
  return response.status;
}

/** Every raw item the organization owns (tenant, idempotency and organization partitions, plus `extra`), as text. */
const rawItems = async (orgId: string, extra: string[] = []) => [...(await snapshotOrg(orgId, extra)).values()].join('\n');

let org: TestOrg;
let session: TestSession;
let n = 0;
const idempotencyKey = () => `secrets-${process.pid}-${Date.now()}-${++n}`;

beforeAll(async () => {
  org = await newOrg('Secrets Winery');
  session = await newSession(org.orgId);
});

describe('secrets at rest', () => {
  it('attack: reading the idempotency records of the table reveals no sk_ API key and no whsec_ secret, and a replay still returns them', async () => {
    // Prepare
    const keyHeaders = { 'idempotency-key': idempotencyKey() };
    const endpointHeaders = { 'idempotency-key': idempotencyKey() };
    // Act: create with Idempotency-Key, then replay
    const key = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'CI', scopes: ['products:read'] }, headers: keyHeaders });
    const endpoint = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' }, headers: endpointHeaders });
    const raw = await rawItems(org.orgId, [`WHE#${endpoint.body.id}`]);
    const keyReplay = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'CI', scopes: ['products:read'] }, headers: keyHeaders });
    const endpointReplay = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' }, headers: endpointHeaders });
    // Assess: the secrets were made and shown, the table holds neither, the replays give them back
    expect(key.status).toBe(201);
    expect(key.body.key).toMatch(/^sk_live_/);
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
    expect(raw).toContain('IDEMPOTENCY#');
    expect(raw).not.toContain(key.body.key);
    expect(raw).not.toContain(endpoint.body.secret);
    expect(raw).not.toMatch(/sk_(live|test)_[A-Za-z0-9]/);
    expect(raw).not.toMatch(/whsec_[A-Za-z0-9]/);
    expect(keyReplay.headers.get('idempotent-replayed')).toBe('true');
    expect(keyReplay.body).toEqual(key.body);
    expect(endpointReplay.headers.get('idempotent-replayed')).toBe('true');
    expect(endpointReplay.body).toEqual(endpoint.body);
    expect((await call('GET', '/v1/products', { key: keyReplay.body.key })).status).toBe(200);
  });

  it('attack: reading the webhook endpoint items reveals no whsec_ secret after create and after rotate-secret; deliveries still verify', async () => {
    // Prepare
    const created = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' } });
    const id = created.body.id as string;
    const afterCreate = await rawItems(org.orgId, [`WHE#${id}`]);
    // Act
    const rotated = await call('POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, { session });
    const afterRotate = await rawItems(org.orgId, [`WHE#${id}`]);
    // Assess: both items exist, neither secret is in them, both secrets verify a signed delivery
    expect(afterCreate).toContain(`WHE#${id}`);
    expect(afterCreate).not.toContain(created.body.secret);
    expect(afterRotate).not.toContain(created.body.secret);
    expect(afterRotate).not.toContain(rotated.body.secret);
    expect(afterRotate).not.toMatch(/whsec_[A-Za-z0-9]/);
    expect(await deliver(id, created.body.secret)).toBe(200);
    expect(await deliver(id, rotated.body.secret)).toBe(200);
    expect(await deliver(id, 'whsec_not-the-secret')).toBe(401);
  });

  it('reads an endpoint stored before sealing (plaintext secret), and seals it on its next write', async () => {
    // Prepare: an endpoint whose items are rewritten as they were stored before sealing
    const created = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' } });
    const id = created.body.id as string;
    const keys = [{ PK: `WHE#${id}`, SK: 'WHE' }, { PK: `ORG#${org.orgId}`, SK: `WHE#${id}` }];
    for (const Key of keys) {
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key }));
      const { sealedSecrets: _sealed, secrets, ...rest } = Item as Record<string, unknown>;
      const plaintext = (secrets as { createdAt: string }[]).map((s) => ({ ...s, secret: created.body.secret }));
      await db().send(new PutCommand({ TableName: tableName(), Item: { ...rest, secrets: plaintext } }));
    }
    const legacy = await rawItems(org.orgId, [`WHE#${id}`]);
    // Act
    const before = await deliver(id, created.body.secret);
    const patched = await call('PATCH', `/v1/webhooks/endpoints/${id}`, { session, body: { description: 'sealed now' } });
    const after = await rawItems(org.orgId, [`WHE#${id}`]);
    // Assess
    expect(legacy).toContain(created.body.secret);
    expect(before).toBe(200);
    expect(patched.status).toBe(200);
    expect(after).not.toContain(created.body.secret);
    expect(await deliver(id, created.body.secret)).toBe(200);
  });
});
