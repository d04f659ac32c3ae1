import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PassportError, type PassportClient, type Registration } from '../src/index.ts';
import { call, newOrg, newSession, type TestOrg } from '../../test/support/api.ts';
import { verifiedDomainId } from '../../test/support/domains.ts';
import { uniqueGtin13 } from '../../test/support/gtin.ts';
import { until } from '../../test/support/until.ts';
import { sdkClient, WINE } from './support.ts';

/**
 * client.registry against the local stack (docs/sdk.md, docs/registry.md): the upload files built
 * (buildFiles), the registry's result file applied (uploadResults), a rejected entry resubmitted
 * (resubmit) and sent again, and every registration read through the list's iterator.
 */
let org: TestOrg;
let client: PassportClient;
/** A wine on the platform's host (no https brand Digital Link): held by the pre-checks. */
let offDomain: { productId: string; qrCodeUrl: string };
/** A wine on the organization's verified brand domain, its backup copy written: it goes in the files. */
let branded: { productId: string; qrCodeUrl: string };

const wine = (name: string) => ({ name, category: 'wine' as const, gtin: uniqueGtin13() });
const registrationOf = async (productId: string): Promise<Registration> => {
  const [model] = await client.registry.listRegistrations({ productId, granularity: 'MODEL' }).toArray();
  if (!model) throw new Error(`no registration of ${productId}`);
  return model;
};

beforeAll(async () => {
  org = await newOrg('SDK Registry Files');
  client = sdkClient(org.live);
  await client.registry.updateSettings({ enabled: true, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '22042110' });
  offDomain = await client.products.create(wine('SDK wine on the platform host'));
  await client.passports.publish({ productId: offDomain.productId, data: WINE });
  const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session: await newSession(org.orgId), body: { default: true } });
  if (domain.status !== 200) throw new Error(`set-up: default domain: ${domain.text}`);
  branded = await client.products.create(wine('SDK branded Riesling'));
  await client.passports.publish({ productId: branded.productId, data: WINE });
  const { backupUrl } = await client.passports.get(branded.productId);
  await until('the backup copy', async () => ((await fetch(backupUrl ?? '')).status === 200 ? true : undefined), 60_000);
}, 120_000);

describe('client.registry', () => {
  it('buildFiles: the branded wine in a JSON file (its SHA-256 right), marked submitted; the other held with its reasons', async () => {
    // Act
    const answer = await client.registry.buildFiles('json');
    // Assess
    expect(answer).toMatchObject({ object: 'registry_files', submitted: 1, more: false });
    expect(answer.files.map((f) => [f.name, f.entries])).toEqual([['registry-001-of-001.json', 1]]);
    const [file] = answer.files;
    expect(createHash('sha256').update(file?.content ?? '', 'utf8').digest('hex')).toBe(file?.sha256);
    expect((JSON.parse(file?.content ?? '[]') as { upi: string }[]).map((e) => e.upi)).toEqual([branded.qrCodeUrl]);
    expect(answer.pendingChecks.map((p) => p.upi)).toEqual([offDomain.qrCodeUrl]);
    expect(answer.pendingChecks[0]?.reasons.map((r) => r.code)).toContain('upi_not_https');
    expect(await registrationOf(branded.productId)).toMatchObject({ status: 'submitted', correlationId: answer.correlationId });
  });

  it('uploadResults: the registry’s result file as text, then the same as bytes, which changes nothing', async () => {
    // Prepare
    const csv = `upi,status,errors\n${branded.qrCodeUrl},rejected,Operator not verified\n`;
    // Act
    const first = await client.registry.uploadResults(csv);
    const again = await client.registry.uploadResults(new TextEncoder().encode(csv));
    // Assess
    expect(first).toMatchObject({ object: 'registry_results', rows: 1, rejected: 1, unmatched: [] });
    expect(again).toMatchObject({ rows: 1, rejected: 0, unchanged: 1, unmatched: [] });
    expect(await registrationOf(branded.productId)).toMatchObject({ status: 'rejected', reasons: [{ source: 'registry', message: 'Operator not verified' }] });
  });

  it('resubmit: the rejected entry back to pending_checks with an Idempotency-Key, in the next XML file; a submitted one is a PassportError naming status', async () => {
    // Prepare
    const { id } = await registrationOf(branded.productId);
    const sent: { method: string; path: string; key: string | null }[] = [];
    const recording = sdkClient(org.live, {
      fetch: (request) => (sent.push({ method: request.method, path: new URL(request.url).pathname, key: request.headers.get('idempotency-key') }), fetch(request)),
    });
    // Act
    const resubmitted = await recording.registry.resubmit(id);
    const xml = await client.registry.buildFiles('xml');
    const refused = await client.registry.resubmit(id).catch((error: unknown) => error);
    // Assess
    expect(resubmitted).toMatchObject({ id, status: 'pending_checks', reasons: [], correlationId: null });
    expect(sent).toEqual([{ method: 'POST', path: `/v1/registry/registrations/${id}/resubmit`, key: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    expect(xml.files.map((f) => [f.format, f.entries])).toEqual([['xml', 1]]);
    expect(xml.files[0]?.content).toContain(`<upi>${branded.qrCodeUrl}</upi>`);
    expect(refused).toBeInstanceOf(PassportError);
    expect(refused).toMatchObject({ status: 409, type: 'conflict', param: 'status' });
  });

  it('listRegistrations: every registration through the async iterator, page by page', async () => {
    // Act
    const seen: Registration[] = [];
    for await (const registration of client.registry.listRegistrations({ limit: 1 })) seen.push(registration);
    // Assess
    expect(seen.map((r) => r.upi).sort()).toEqual([offDomain.qrCodeUrl, branded.qrCodeUrl].sort());
    expect(Object.fromEntries(seen.map((r) => [r.upi, r.status]))).toEqual({ [offDomain.qrCodeUrl]: 'pending_checks', [branded.qrCodeUrl]: 'submitted' });
  });
});
