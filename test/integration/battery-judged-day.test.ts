import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { batteryModelData } from '../support/battery.ts';
import { createProduct } from '../support/fixtures.ts';

/**
 * "Complete" is judged on the day that counts (issue 41, Major 3; docs/battery.md#the-day-judged),
 * through HTTP: without asOf a battery passport is judged on the later of today and 18 February
 * 2027, when the battery passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1)); the
 * report says so in words, publishing refuses every element mandatory that day (a 422 listing them
 * all), a draft's `missing` lists the same, and an explicit asOf of today judges on today.
 */

type Json = Record<string, any>;

const MANDATORY_FROM = '2027-02-18';
const today = () => new Date().toISOString().slice(0, 10);
/** The day and reason a battery passport without asOf is judged on, on the day this runs. */
const expectedDefault = () => (today() < MANDATORY_FROM ? { asOf: MANDATORY_FROM, reason: 'mandatory_from' } : { asOf: today(), reason: 'today' });

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Cell Maker judged day');
});

describe('a battery passport without asOf', () => {
  it('is reported on the later of today and 18 Feb 2027, in words, and publishing it refuses every element mandatory that day', async () => {
    // Prepare: a model's draft that states its category and nothing else (1 element filled)
    const product = await createProduct(org.live, { name: 'EVP75 one element', category: 'battery' });
    const data = { generalProductInformation: { batteryCategory: 'ev' } };
    const draft = await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data } });

    // Act
    const report = await call('GET', `/v1/products/${product.productId}/passport/completeness?draft=true`, { key: org.live });
    const publishedDraft = await call('POST', `/v1/products/${product.productId}/draft/publish`, { key: org.live });
    const publishedDirectly = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data } });
    const version = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });

    // Assess: the report is not "complete" for an almost empty passport, and says on which day and why
    const expected = expectedDefault();
    expect(draft.status, draft.text).toBe(200);
    expect(report.status, report.text).toBe(200);
    expect(report.body).toMatchObject({ asOf: expected.asOf, complete: false, batteryCategory: 'ev', judgedOn: { reason: expected.reason } });
    if (expected.reason === 'mandatory_from') expect(report.body.judgedOn.words).toBe('judged as on 18 Feb 2027, when the passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1))');
    expect(report.body.missingMandatory).toEqual(expect.arrayContaining(['data.labeling.declarationOfConformity', 'data.generalProductInformation.batteryMass']));
    // The draft's own `missing` is what publishing it would refuse
    expect(draft.body.missing).toEqual(report.body.missingMandatory);
    // Publishing refuses, naming every missing element, and nothing is published
    for (const refused of [publishedDraft, publishedDirectly]) {
      const error = expectError(refused, 422, 'validation_error', report.body.missingMandatory[0]);
      expect(error.params).toEqual(report.body.missingMandatory);
      expect(error.message).toContain(`an ev battery on ${expected.asOf}`);
    }
    expectError(version, 404, 'not_found');
  });

  it('publishes a complete passport, answered with the report of the day judged', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'EVP75 complete', category: 'battery' });

    // Act
    const published = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: batteryModelData('ev') } });
    const report = await call('GET', `/v1/products/${product.productId}/passport/completeness`, { key: org.live });

    // Assess
    const expected = expectedDefault();
    expect(published.status, published.text).toBe(201);
    expect(published.body.completeness).toMatchObject({ asOf: expected.asOf, complete: true, missingMandatory: [], judgedOn: { reason: expected.reason } });
    expect(report.body).toMatchObject({ source: 'passport', asOf: expected.asOf, complete: true, judgedOn: { reason: expected.reason } });
  });
});

describe('asOf named by the request', () => {
  it('judges on that day: the report on any day, for planning; publishing on today when asked for today', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'EVP75 early', category: 'battery' });
    const data: Json = { generalProductInformation: { batteryCategory: 'ev' } };
    await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data } });

    // Act
    const dayBefore = await call('GET', `/v1/products/${product.productId}/passport/completeness?draft=true&asOf=2027-02-17`, { key: org.live });
    const early = await call('POST', `/v1/passports?asOf=${today()}`, { key: org.live, body: { productId: product.productId, data } });

    // Assess: the day before the passport becomes mandatory nothing is missing, and the report says it was the day asked for
    expect(dayBefore.body).toMatchObject({ asOf: '2027-02-17', complete: true, missingMandatory: [], judgedOn: { reason: 'as_of', words: 'judged as on 17 Feb 2027, the day asked for' } });
    // Today, asked for explicitly: published before 18 February 2027 (nothing is due yet), refused from then on
    if (today() < MANDATORY_FROM) {
      expect(early.status, early.text).toBe(201);
      expect(early.body.completeness).toMatchObject({ asOf: today(), complete: true, judgedOn: { reason: 'today' } });
    } else {
      expectError(early, 422, 'validation_error');
    }
  });
});
