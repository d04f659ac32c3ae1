import { getPassportVersion } from '../data/passports.ts';
import { draftMissing, toDraftView, type Draft, type DraftRecord } from '../domain/draft.ts';
import { batteryCompleteness, completenessReport, publishJudgedOn, reportJudgedOn, type CompletenessReport } from '../domain/passport-completeness.ts';
import { passportKindOf } from '../domain/passport-kinds.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { NotFoundError } from '../http/errors.ts';
import { requireDraft } from './drafts.ts';

/**
 * `GET /v1/products/{productId}/passport/completeness` (docs/battery.md#completeness-and-publishing):
 * the report of the current version, or of the draft with `draft`, judged on `asOf`, by default on
 * the day publishing judges it (reportJudgedOn: for a battery the later of today and 18 February
 * 2027). Publishing the same data on the same day refuses exactly its `missingMandatory`.
 */
export async function passportCompleteness(tenant: Tenant, product: ProductRecord, options: { draft: boolean; asOf?: string }): Promise<CompletenessReport> {
  const battery = passportKindOf(product.category) === 'battery';
  if (options.draft) {
    const draft = await requireDraft(tenant, product.productId);
    const judgedOn = reportJudgedOn(options.asOf, battery ? { data: draft.data, granularity: product.granularity } : undefined);
    return completenessReport({ product, source: 'draft', version: null, data: draft.data, asOf: judgedOn.day, judgedOn, generalMissing: () => draftMissing(draft.data, product.category) });
  }
  const version = product.passportVersion ? await getPassportVersion(tenant, product.productId, product.passportVersion) : undefined;
  if (!version) {
    throw new NotFoundError(`Product '${product.productId}' has no published passport yet.`, {
      param: 'productId',
      suggestion: 'Ask for the draft\'s report with ?draft=true, or publish one with POST /v1/passports.',
    });
  }
  const judgedOn = reportJudgedOn(options.asOf, battery ? { data: version.data, granularity: product.granularity } : undefined);
  return completenessReport({ product, source: 'passport', version: version.version, data: version.data, asOf: judgedOn.day, judgedOn, generalMissing: () => draftMissing(version.data, product.category) });
}

/**
 * A draft's read form for its product: a battery draft's `missing` lists the elements it lacks that
 * publishing it without asOf would refuse, on the day publishing judges it (the later of today and
 * 18 February 2027, docs/battery.md#the-day-judged); the wine rules of lib/domain/draft.ts know
 * nothing of batteries.
 */
export function draftViewOf(product: Pick<ProductRecord, 'category' | 'granularity'>, draft: DraftRecord): Draft {
  const view = toDraftView(draft, product.category);
  if (passportKindOf(product.category) !== 'battery') return view;
  return { ...view, missing: batteryCompleteness(draft.data, { asOf: publishJudgedOn(undefined, { data: draft.data, granularity: product.granularity }).day, granularity: product.granularity }).missingMandatory };
}
