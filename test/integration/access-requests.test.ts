import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessRequestKey } from '../../lib/data/access-requests.ts';
import { db, tableName } from '../../lib/data/client.ts';
import { MAX_JUSTIFICATION, MAX_REASON, OVERDUE_AFTER_DAYS } from '../../lib/domain/access-requests.ts';
import { filterByTier } from '../../lib/domain/battery/elements.ts';
import { overlayItemData, type BatteryItemData, type BatteryPassportData } from '../../lib/domain/battery/index.ts';
import { CROSS_ORGANIZATION_ACTIONS_PER_HOUR } from '../../lib/auth/pair-rate-limit.ts';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Requests for access (issue 38 point 7, docs/access.md#access-requests): a person with a
 * legitimate interest asks a battery passport's owner for one purpose's elements (Regulation (EU)
 * 2023/1542 Art. 77(2)(c)); the owner lists, approves (a grant of that purpose follows, and reads
 * what it should) or refuses with a reason; both logs record each step; a request pending
 * 30 days is overdue; the fields are named when wrong; nobody else sees a request.
 */

type Json = Record<string, any>;
const model = batteryModelData('ev');
/** The battery's own data, with identifiers that name it (set once the product has its GTIN). */
let itemData: Json;
const SERIAL = 'AREQ0001';
const JUSTIFICATION = 'We aggregate home batteries for the balancing market; the owner asked us to offer this battery.';

let owner: TestOrg;
let requester: TestOrg;
let stranger: TestOrg;
let battery: CreatedProduct;
let wine: CreatedProduct;
let itemDppId = '';
let itemLink = '';

const ask = (body: Json, key = requester.live) => call('POST', '/v1/access-requests', { key, body });
const events = async (key: string, type: string): Promise<Json[]> => (await call('GET', `/v1/events?type=${type}&limit=100`, { key })).body.data as Json[];

beforeAll(async () => {
  [owner, requester, stranger] = await Promise.all([newOrg('Requests Cell Maker'), newOrg('Requests Aggregator'), newOrg('Requests Stranger')]);
  battery = await createProduct(owner.live, { name: 'AREQ traction battery', category: 'battery' });
  await publish(owner.live, battery.productId, model);
  wine = await createProduct(owner.live, { name: 'AREQ Riesling' });
  await publish(owner.live, wine.productId);
  itemData = batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/${SERIAL}`, serial: SERIAL });
  const item = await call('PUT', `/v1/products/${battery.productId}/items/${SERIAL}?force=true`, { key: owner.live, body: { data: itemData } });
  if (item.status !== 201) throw new Error(`set-up: ${item.text}`);
  itemDppId = item.body.dppId;
  itemLink = item.body.digitalLink;
});

describe('point 7: a request for access, approved', () => {
  it('point 7: the requester asks for one purpose, the owner lists and approves it, and the grant opens that purpose’s elements only', async () => {
    // Prepare: before, the requester reads what the public reads
    const before = await call('GET', `/v1/dpps/${itemDppId}`, { key: requester.live });

    // Act
    const created = await ask({ productIds: [itemLink, battery.qrCodeUrl], purpose: 'energy_services', justification: JUSTIFICATION });
    const id = created.body.id as string;
    const asOwner = await call('GET', '/v1/access-requests', { key: owner.live });
    const asRequester = await call('GET', '/v1/access-requests?as=requester', { key: requester.live });
    const byRequester = await call('POST', `/v1/access-requests/${id}/approve`, { key: requester.live });
    const approved = await call('POST', `/v1/access-requests/${id}/approve`, { key: owner.live });
    const again = await call('POST', `/v1/access-requests/${id}/approve`, { key: owner.live });
    const after = await call('GET', `/v1/dpps/${itemDppId}`, { key: requester.live });
    const answered = await call('GET', `/v1/access-requests/${id}`, { key: requester.live });

    // Assess: the request, as both sides list it
    expect(before.body.accessTier).toBe('public');
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/access-requests/${id}`);
    expect(created.body).toMatchObject({
      object: 'access_request',
      requesterOrgId: requester.orgId,
      requesterName: 'Requests Aggregator',
      ownerOrgId: owner.orgId,
      environment: 'live',
      productIds: [battery.productId],
      purpose: 'energy_services',
      basis: expect.stringContaining('Art. 77(2)'),
      justification: JUSTIFICATION,
      status: 'pending',
      overdue: false,
      answeredAt: null,
      grantId: null,
    });
    expect(Date.parse(created.body.answerDueBy) - Date.parse(created.body.createdAt)).toBe(OVERDUE_AFTER_DAYS * 24 * 60 * 60 * 1000);
    expect(asOwner.body.data.map((r: Json) => r.id)).toContain(id);
    expect(asRequester.body.data.map((r: Json) => r.id)).toContain(id);
    // Assess: only the owner approves, once; the grant is of the request's purpose
    expectError(byRequester, 403, 'permission_error');
    expect(approved.status, approved.text).toBe(201);
    expect(approved.headers.get('location')).toBe(`/v1/access-grants/${approved.body.id}`);
    expect(approved.body).toMatchObject({
      object: 'access_grant',
      granteeOrgId: requester.orgId,
      tier: 'legitimate_interest',
      purpose: 'energy_services',
      audiences: ['energy_services'],
      productIds: [battery.productId],
      write: false,
      active: true,
      accessRequestId: id,
    });
    expectError(again, 409, 'duplicate_error', 'requestId');
    expect(answered.body).toMatchObject({ status: 'approved', grantId: approved.body.id, answeredAt: expect.any(String), overdue: false });
    // Assess: the grant reads the purpose's elements (Annex XIII point 4), not point 2
    const view = overlayItemData(model as BatteryPassportData, itemData as BatteryItemData);
    expect(after.body).toMatchObject({ accessTier: 'legitimate_interest', audiences: ['public', 'energy_services'] });
    expect(after.body.data).toEqual(filterByTier(view, ['energy_services']));
    expect(after.body.data.materialComposition?.batteryMaterials).toBeUndefined();
    expect(after.body.data.performanceAndDurability.batteryCondition.stateOfCertifiedEnergy).toBeDefined();
  });

  it('point 7: both organizations’ logs record the request and its approval, the other side’s as the service’s', async () => {
    // Prepare
    const created = await ask({ ownerOrgId: owner.orgId, gtin: battery.gtin, purpose: 'dismantling_repair_repurposing_recycling', justification: 'We recycle traction batteries.' });
    const approved = await call('POST', `/v1/access-requests/${created.body.id}/approve`, { key: owner.live });
    const id = created.body.id as string;

    // Act
    const ownerCreated = (await events(owner.live, 'access_request.created')).filter((e) => e.data.object.id === id);
    const ownerApproved = (await events(owner.live, 'access_request.approved')).filter((e) => e.data.object.id === id);
    const ownerGrant = (await events(owner.live, 'access_grant.created')).filter((e) => e.data.object.id === approved.body.id);
    const theirCreated = (await events(requester.live, 'access_request.created')).filter((e) => e.data.object.id === id);
    const theirApproved = (await events(requester.live, 'access_request.approved')).filter((e) => e.data.object.id === id);
    const theirGrant = (await events(requester.live, 'access_grant.created')).filter((e) => e.data.object.id === approved.body.id);

    // Assess
    expect(created.status, created.text).toBe(201);
    expect(approved.body.purpose).toBe('dismantling_repair_repurposing_recycling');
    expect(ownerCreated).toHaveLength(1);
    expect(ownerCreated[0]!.actor).toEqual({ type: 'system', id });
    expect(theirCreated).toHaveLength(1);
    expect(theirCreated[0]!.actor.type).toBe('api_key');
    expect(ownerApproved).toHaveLength(1);
    expect(ownerApproved[0]!.actor.type).toBe('api_key');
    expect(ownerApproved[0]!.data.object).toMatchObject({ status: 'approved', grantId: approved.body.id });
    expect(theirApproved).toHaveLength(1);
    expect(theirApproved[0]!.actor).toEqual({ type: 'system', id });
    expect(ownerGrant).toHaveLength(1);
    expect(theirGrant).toHaveLength(1);
  });
});

describe('point 7: a request refused', () => {
  it('point 7: the owner refuses with a reason, which is required; the requester reads it and still reads the public elements', async () => {
    // Prepare
    const created = await ask({ productIds: [battery.qrCodeUrl], purpose: 'dismantling_repair_repurposing_recycling', justification: 'Second-life assessment.' });
    const id = created.body.id as string;

    // Act
    const noReason = await call('POST', `/v1/access-requests/${id}/refuse`, { key: owner.live, body: {} });
    const blank = await call('POST', `/v1/access-requests/${id}/refuse`, { key: owner.live, body: { reason: '   ' } });
    const byRequester = await call('POST', `/v1/access-requests/${id}/refuse`, { key: requester.live, body: { reason: 'No.' } });
    const refused = await call('POST', `/v1/access-requests/${id}/refuse`, { key: owner.live, body: { reason: 'You are not a recycler we know; send your permit.' } });
    const approveAfter = await call('POST', `/v1/access-requests/${id}/approve`, { key: owner.live });
    const seen = await call('GET', `/v1/access-requests/${id}`, { key: requester.live });
    const theirs = (await events(requester.live, 'access_request.refused')).filter((e) => e.data.object.id === id);
    const mine = (await events(owner.live, 'access_request.refused')).filter((e) => e.data.object.id === id);

    // Assess
    expectError(noReason, 422, 'validation_error', 'reason');
    expectError(blank, 422, 'validation_error', 'reason');
    expectError(byRequester, 403, 'permission_error');
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body).toMatchObject({ status: 'refused', reason: 'You are not a recycler we know; send your permit.', grantId: null, overdue: false });
    expectError(approveAfter, 409, 'duplicate_error', 'requestId');
    expect(seen.body).toMatchObject({ status: 'refused', reason: 'You are not a recycler we know; send your permit.' });
    expect(theirs).toHaveLength(1);
    expect(mine).toHaveLength(1);
  });

  it('point 7: an approval and a refusal racing each other: one wins, the other is 409, and at most one grant exists', async () => {
    // Prepare
    const id = (await ask({ productIds: [battery.qrCodeUrl], purpose: 'energy_services', justification: 'Race.' })).body.id as string;
    // Act
    const [approved, refused] = await Promise.all([
      call('POST', `/v1/access-requests/${id}/approve`, { key: owner.live }),
      call('POST', `/v1/access-requests/${id}/refuse`, { key: owner.live, body: { reason: 'Race.' } }),
    ]);
    const final = (await call('GET', `/v1/access-requests/${id}`, { key: owner.live })).body;
    const grants = ((await call('GET', '/v1/access-grants?limit=100', { key: owner.live })).body.data as Json[]).filter((g) => g.accessRequestId === id);
    // Assess
    expect([approved.status, refused.status].sort()).toEqual(final.status === 'approved' ? [201, 409] : [200, 409]);
    expect(grants).toHaveLength(final.status === 'approved' ? 1 : 0);
  });

  it('point 7: a refusal reason just over its budget is refused, naming reason', async () => {
    // Prepare
    const created = await ask({ productIds: [battery.qrCodeUrl], purpose: 'energy_services', justification: 'Budget test.' });
    // Act
    const over = await call('POST', `/v1/access-requests/${created.body.id}/refuse`, { key: owner.live, body: { reason: 'x'.repeat(MAX_REASON + 1) } });
    const at = await call('POST', `/v1/access-requests/${created.body.id}/refuse`, { key: owner.live, body: { reason: 'x'.repeat(MAX_REASON) } });
    // Assess
    expectError(over, 422, 'validation_error', 'reason');
    expect(at.status, at.text).toBe(200);
  });
});

describe('point 7: overdue requests', () => {
  /** Moves a request's creation back in both copies, as if it had been made `days` ago. */
  async function backdate(id: string, days: number): Promise<void> {
    const createdAt = new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
    for (const [tenant, side] of [
      [{ orgId: owner.orgId, environment: 'live' as const }, 'owner' as const],
      [{ orgId: requester.orgId, environment: 'live' as const }, 'requester' as const],
    ] as const) {
      await db().send(
        new UpdateCommand({ TableName: tableName(), Key: accessRequestKey(tenant, side, id), UpdateExpression: 'SET createdAt = :at', ExpressionAttributeValues: { ':at': createdAt } }),
      );
    }
  }

  it('point 7: a request unanswered for 30 days is listed as overdue: true, a younger one and an answered one are not', async () => {
    // Prepare
    const old = (await ask({ productIds: [battery.qrCodeUrl], purpose: 'energy_services', justification: 'Old.' })).body.id as string;
    const young = (await ask({ productIds: [battery.qrCodeUrl], purpose: 'energy_services', justification: 'Young.' })).body.id as string;
    const answered = (await ask({ productIds: [battery.qrCodeUrl], purpose: 'energy_services', justification: 'Answered.' })).body.id as string;
    await call('POST', `/v1/access-requests/${answered}/refuse`, { key: owner.live, body: { reason: 'Not now.' } });
    await backdate(old, OVERDUE_AFTER_DAYS);
    await backdate(young, OVERDUE_AFTER_DAYS - 1);
    await backdate(answered, OVERDUE_AFTER_DAYS + 5);

    // Act
    const listed = (await call('GET', '/v1/access-requests?limit=100', { key: owner.live })).body.data as Json[];
    const theirs = (await call('GET', `/v1/access-requests/${old}`, { key: requester.live })).body;

    // Assess
    const byId = new Map(listed.map((r) => [r.id, r]));
    expect(byId.get(old)).toMatchObject({ status: 'pending', overdue: true });
    expect(Date.parse(byId.get(old)!.answerDueBy)).toBeLessThanOrEqual(Date.now());
    expect(byId.get(young)).toMatchObject({ status: 'pending', overdue: false });
    expect(byId.get(answered)).toMatchObject({ status: 'refused', overdue: false });
    expect(theirs.overdue).toBe(true);
  });
});

describe('point 7: what a request must say', () => {
  it('point 7: validation errors name the field', async () => {
    // Prepare
    const valid = { productIds: [battery.qrCodeUrl], purpose: 'energy_services', justification: JUSTIFICATION };
    const otherOwner = await newOrg('Requests Other Maker');
    const theirs = await createProduct(otherOwner.live, { name: 'AREQ other battery', category: 'battery' });
    await publish(otherOwner.live, theirs.productId, model);
    const testLink = battery.qrCodeUrl.replace('/live/', '/test/');

    // Act
    const cases: Array<[Json, number, string]> = [
      [{ ...valid, purpose: undefined }, 422, 'purpose'],
      [{ ...valid, purpose: 'curiosity' }, 422, 'purpose'],
      [{ ...valid, justification: undefined }, 422, 'justification'],
      [{ ...valid, justification: ' ' }, 422, 'justification'],
      [{ ...valid, justification: 'x'.repeat(MAX_JUSTIFICATION + 1) }, 422, 'justification'],
      [{ ...valid, justification: 'bad \u202e text' }, 422, 'justification'],
      [{ ...valid, productIds: undefined }, 422, 'productIds'],
      [{ ...valid, productIds: [] }, 422, 'productIds'],
      [{ ...valid, productIds: Array.from({ length: 101 }, () => battery.qrCodeUrl) }, 422, 'productIds'],
      [{ ...valid, productIds: [`${battery.qrCodeUrl}?${'x'.repeat(2048 - battery.qrCodeUrl.length)}`] }, 422, 'productIds[0]'],
      [{ ...valid, productIds: undefined, gtin: battery.gtin }, 422, 'ownerOrgId'],
      [{ ...valid, productIds: undefined, ownerOrgId: owner.orgId, gtin: '4006381333932' }, 422, 'gtin'],
      [{ ...valid, gtin: battery.gtin }, 422, 'gtin'],
      [{ ...valid, productIds: [wine.qrCodeUrl] }, 422, 'productIds[0]'],
      [{ ...valid, productIds: [battery.qrCodeUrl, theirs.qrCodeUrl] }, 422, 'productIds[1]'],
      [{ ...valid, productIds: [testLink] }, 422, 'productIds[0]'],
      [{ ...valid, ownerOrgId: otherOwner.orgId }, 422, 'productIds[0]'],
      [{ ...valid, productIds: ['https://nowhere.example/01/09520123456788'] }, 404, 'productIds[0]'],
      [{ ...valid, productIds: undefined, ownerOrgId: stranger.orgId, gtin: battery.gtin }, 404, 'gtin'],
      [{ ...valid, unknown: true }, 422, 'unknown'],
    ];
    const answers = [];
    for (const [body] of cases) answers.push(await ask(body));
    const own = await ask(valid, owner.live);
    const ownByGtin = await ask({ ...valid, productIds: undefined, ownerOrgId: owner.orgId, gtin: battery.gtin }, owner.live);
    const atBudget = await ask({ ...valid, justification: 'x'.repeat(MAX_JUSTIFICATION) });
    const hundred = await ask({ ...valid, productIds: Array.from({ length: 100 }, (_, i) => (i % 2 ? itemLink : battery.qrCodeUrl)) });

    // Assess
    answers.forEach((answer, i) => {
      const [, status, param] = cases[i]!;
      expectError(answer, status, status === 404 ? 'not_found' : 'validation_error', param);
    });
    expectError(own, 422, 'validation_error', 'productIds');
    expectError(ownByGtin, 422, 'validation_error', 'ownerOrgId');
    expect(atBudget.status, atBudget.text).toBe(201);
    expect(hundred.status, hundred.text).toBe(201);
    expect(hundred.body.productIds).toEqual([battery.productId]);
  });

  it('point 7: creating requests towards one organization counts against the pair’s limit: past it, 429 and nothing written', async () => {
    // Prepare
    const [asker, asked] = await Promise.all([newOrg('Requests Pusher'), newOrg('Requests Pushed')]);
    const theirs = await createProduct(asked.live, { name: 'AREQ pushed battery', category: 'battery' });
    await publish(asked.live, theirs.productId, model);
    const statuses: number[] = [];

    // Act
    for (let i = 0; i < CROSS_ORGANIZATION_ACTIONS_PER_HOUR; i++) statuses.push((await ask({ productIds: [theirs.qrCodeUrl], purpose: 'energy_services', justification: `Try ${i}.` }, asker.live)).status);
    const over = await ask({ productIds: [theirs.qrCodeUrl], purpose: 'energy_services', justification: 'One more.' }, asker.live);
    const received = (await call('GET', '/v1/access-requests?limit=100', { key: asked.live })).body.data as Json[];

    // Assess
    expect(statuses.every((status) => status === 201)).toBe(true);
    expectError(over, 429, 'rate_limit_error');
    expect(received).toHaveLength(CROSS_ORGANIZATION_ACTIONS_PER_HOUR);
  });
});

describe('point 7: nobody else sees a request', () => {
  it('point 7: another organization, and the requester’s other environment, get 404 for it and find it in no listing', async () => {
    // Prepare
    const id = (await ask({ productIds: [battery.qrCodeUrl], purpose: 'energy_services', justification: 'Private.' })).body.id as string;

    // Act
    const answers = [
      await call('GET', `/v1/access-requests/${id}`, { key: stranger.live }),
      await call('POST', `/v1/access-requests/${id}/approve`, { key: stranger.live }),
      await call('POST', `/v1/access-requests/${id}/refuse`, { key: stranger.live, body: { reason: 'Hijacked' } }),
      await call('GET', `/v1/access-requests/${id}`, { key: requester.test }),
      await call('POST', `/v1/access-requests/${id}/approve`, { key: owner.test }),
      await call('GET', '/v1/access-requests/not-an-id', { key: owner.live }),
    ];
    const listings = [
      await call('GET', '/v1/access-requests', { key: stranger.live }),
      await call('GET', '/v1/access-requests?as=requester', { key: stranger.live }),
      await call('GET', '/v1/access-requests?as=requester', { key: requester.test }),
      await call('GET', '/v1/access-requests', { key: owner.test }),
    ];
    const still = await call('GET', `/v1/access-requests/${id}`, { key: owner.live });

    // Assess
    for (const answer of answers) expectError(answer, 404, 'not_found', 'requestId');
    for (const listing of listings) {
      expect(listing.status).toBe(200);
      expect(listing.text).not.toContain(id);
    }
    expect(still.body.status).toBe('pending');
  });
});
