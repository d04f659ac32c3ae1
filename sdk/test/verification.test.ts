import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVerificationError, verifyPassportCredential, verifyWebhook, WebhookVerificationError, type PassportClient } from '../src/index.ts';
import { baseUrl, newOrg, type TestOrg } from '../../test/support/api.ts';
import { uniqueGtin13 } from '../../test/support/gtin.ts';
import { startReceiver, type Receiver } from '../../test/support/receiver.ts';
import { sdkClient, WINE } from './support.ts';

/**
 * The SDK's verifiers on what the stack really sends: a delivery of the outbound webhooks
 * (docs/webhooks-outbound.md) and a version's signed credential (docs/credentials.md), each checked
 * the way a receiver or a verifier writes it, in a few lines.
 */
let org: TestOrg;
let client: PassportClient;
let receiver: Receiver;

beforeAll(async () => {
  org = await newOrg('SDK Verification Org');
  client = sdkClient(org.live);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

describe('verifyWebhook', () => {
  it('returns the typed event of a real delivery, and refuses a changed body, another secret and a missing signature', async () => {
    // Prepare
    const { secret } = await client.eventSubscriptions.create({ url: receiver.url('/sdk'), events: ['product.created'] });
    const { productId } = await client.products.create({ name: 'Delivered', category: 'wine', gtin: uniqueGtin13() });
    const [delivery] = await receiver.waitFor((received) => received.some((r) => r.path === '/sdk'), 45_000);
    const { body, headers } = delivery!;
    // Act
    const event = verifyWebhook(body, headers, secret);
    const fromBytes = verifyWebhook(new TextEncoder().encode(body), new Headers(headers as Record<string, string>), secret);
    const refusals = [
      () => verifyWebhook(body.replace('Delivered', 'Forged'), headers, secret),
      () => verifyWebhook(body, headers, `whsec_${btoa('another secret of 32 bytes length')}`),
      () => verifyWebhook(body, { ...headers, 'webhook-signature': undefined }, secret),
    ].map((verify) => {
      try {
        verify();
        return undefined;
      } catch (error) {
        return error;
      }
    });
    // Assess
    expect(event).toMatchObject({ id: headers['webhook-id'], type: 'product.created', data: { object: expect.objectContaining({ productId, name: 'Delivered' }) } });
    expect(fromBytes).toEqual(event);
    expect(refusals.every((error) => error instanceof WebhookVerificationError)).toBe(true);
  });
});

describe('verifyPassportCredential', () => {
  it('verifies a version’s credential by the issuer’s did:web, reports revocation after a withdrawal, and refuses a changed one', async () => {
    // Prepare
    const { productId } = await client.products.create({ name: 'Signed', category: 'wine', gtin: uniqueGtin13() });
    const { passportId } = await client.passports.publish({ productId, data: WINE });
    const passport = await client.passports.get(productId);
    const jwt = await client.passports.credential(productId, passportId);
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    changed.credentialSubject.digest = `sha256:${'0'.repeat(64)}`;
    const forged = `${header}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
    // Act
    const verified = await verifyPassportCredential(jwt, { allowLoopbackHttp: true });
    await client.products.withdraw(productId, { reason: 'recall' });
    const afterWithdrawal = await verifyPassportCredential(jwt, { allowLoopbackHttp: true });
    const refused = await verifyPassportCredential(forged, { allowLoopbackHttp: true }).catch((e: unknown) => e);
    const overHttps = await verifyPassportCredential(jwt).catch((e: unknown) => e);
    // Assess
    expect(verified.issuer).toBe(`did:web:${encodeURIComponent(new URL(baseUrl()).host)}:orgs:${org.orgId}`);
    expect(verified.kid.startsWith(`${verified.issuer}#`)).toBe(true);
    expect(verified.credential.credentialSubject).toMatchObject({ productId, passportId, version: 1, digest: passport.digest });
    expect(verified.revoked).toBe(false);
    expect(afterWithdrawal.revoked).toBe(true);
    expect(refused).toBeInstanceOf(CredentialVerificationError);
    expect((refused as Error).message).toMatch(/signature/);
    // did:web is https: a local stack's http DID document is read only when the caller allows it.
    expect(overHttps).toBeInstanceOf(CredentialVerificationError);
  });
});
