import { describe, expect, it } from 'vitest';
import { call, newOrg, newSession } from '../support/api.ts';
import { batteryModelData } from '../support/battery.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish } from '../support/fixtures.ts';
import { until } from '../support/until.ts';

/**
 * The proof of registration renewed before its 90 days run out (issue 39 point 5, "done when";
 * docs/registry.md#proof-of-registration), with a fake clock: the daily sweep, run as if 80 days had
 * passed, finds the registration in the sparse index under its due day and queues it; the outbox
 * worker, on the same clock, asks the registry (the stack's emulator) and writes a fresh proof.
 */

type Json = Record<string, any>;
const LEI = '5299009RENEWTEST0117';
const DAY = 86_400_000;

describe('proof of registration renewal', () => {
  it('renews a registered battery model\'s proof 14 days before it runs out, once, with its event', async () => {
    // Prepare: a battery model registered through the outbox.
    const org = await newOrg('Registry Renewal Maker');
    const session = await newSession(org.orgId);
    const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } });
    expect(domain.status, domain.text).toBe(200);
    const settings = { enabled: true, operator: { scheme: 'LEI', identifier: LEI }, facilities: ['4006381000017'], commodityCode: '85076000', submission: 'api' };
    expect((await call('PUT', '/v1/registry/settings', { key: org.live, body: settings })).status).toBe(200);
    const model = await createProduct(org.live, { name: 'Renewal traction battery', category: 'battery' });
    await publish(org.live, model.productId, batteryModelData('ev'));
    const registered: Json = await until(
      'the model registered',
      async () => {
        const list = await call('GET', `/v1/registry/registrations?productId=${model.productId}`, { key: org.live });
        const found = (list.body.data as Json[]).find((r) => r.status === 'registered');
        return found;
      },
      90_000,
      250,
    );
    const { sweepRenewals, runOutbox } = await import('../../lib/services/registry-outbox.ts');
    const expiry = Date.parse(registered.proofExpiresAt);
    const mine = <T extends { registrationId: string }>(queued: readonly T[]): T[] => queued.filter((m) => m.registrationId === registered.id);

    // Act: today nothing is due; 80 days on (10 days before the proof runs out) it is, and the worker renews it on that clock.
    const today = await sweepRenewals(undefined, new Date());
    const later = new Date(expiry - 10 * DAY);
    const due = await sweepRenewals(undefined, later);
    const failed = await runOutbox(mine(due).map((message, i) => ({ id: `renew-${i}`, receiptHandle: `renew-${i}`, receiveCount: 1, message })), later);
    const afterRenewal = await sweepRenewals(undefined, later);

    // Assess
    expect(mine(today)).toEqual([]);
    expect(mine(due)).toHaveLength(1);
    expect(failed).toEqual([]);
    const read = await call('GET', `/v1/registry/registrations/${registered.id}`, { key: org.live });
    expect(read.body).toMatchObject({ status: 'registered', registryId: registered.registryId, registeredAt: registered.registeredAt, proofRenewedAt: later.toISOString() });
    expect(Date.parse(read.body.proofExpiresAt)).toBe(later.getTime() + 90 * DAY);
    // Renewed, it is due again only 76 days after the renewal: the sweep on the same day no longer finds it.
    expect(mine(afterRenewal)).toEqual([]);
    const events = await call('GET', '/v1/events?type=registry.registration.proof_renewed&limit=10', { key: org.live });
    expect(events.body.data.map((e: Json) => [e.data.object.id, e.data.object.proofExpiresAt])).toEqual([[registered.id, read.body.proofExpiresAt]]);
  }, 150_000);

  it('records the seal certificate, marks the operator verified once the registry took an entry naming it, and unverified again when the operator changes', async () => {
    // Prepare
    const org = await newOrg('Registry Verification Maker');
    const session = await newSession(org.orgId);
    expect((await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } })).status).toBe(200);
    const fingerprint = 'a'.repeat(64);
    const settings = { enabled: true, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '85076000', submission: 'api', sealCertificate: fingerprint };

    // Act
    const refused = await call('PUT', '/v1/registry/settings', { key: org.live, body: { ...settings, sealCertificate: 'http://seal.example/cert.pem' } });
    const saved = await call('PUT', '/v1/registry/settings', { key: org.live, body: settings });
    const model = await createProduct(org.live, { name: 'Verification battery', category: 'battery' });
    await publish(org.live, model.productId, batteryModelData('ev'));
    const verified: Json = await until(
      'the operator verified',
      async () => {
        const read = await call('GET', '/v1/registry/settings', { key: org.live });
        return read.body.verification.status === 'verified' ? read.body : undefined;
      },
      90_000,
      250,
    );
    const kept = await call('PUT', '/v1/registry/settings', { key: org.live, body: { ...settings, commodityCode: '85076010' } });
    const changed = await call('PUT', '/v1/registry/settings', { key: org.live, body: { ...settings, operator: { scheme: 'GLN', identifier: '4006381000017' } } });

    // Assess
    expect(refused.status).toBe(422);
    expect(refused.body.error.param).toBe('sealCertificate');
    expect(saved.body).toMatchObject({ sealCertificate: fingerprint, verification: { status: 'unverified', verifiedAt: null } });
    const [registration] = (await call('GET', `/v1/registry/registrations?productId=${model.productId}`, { key: org.live })).body.data as Json[];
    expect(verified.verification.verifiedAt).toBe(registration?.registeredAt);
    expect(kept.body.verification).toEqual(verified.verification);
    expect(changed.body.verification).toEqual({ status: 'unverified', verifiedAt: null });
  }, 150_000);
});
