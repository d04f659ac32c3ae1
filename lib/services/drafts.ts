import { deleteDraft, draftDelete, getDraft, saveDraft } from '../data/drafts.ts';
import { eventPut } from '../data/events.ts';
import { draftMark } from '../data/products.ts';
import { draftEnvelopeSchema, toDraftView, type DraftRecord } from '../domain/draft.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { mergePatch } from '../domain/merge-patch.ts';
import type { PassportData, PassportVersion } from '../domain/passport.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { DuplicateError, NotFoundError } from '../http/errors.ts';
import { parseOrThrow } from '../http/validation.ts';
import { checkNutrition, publishVersion, validatePassportData, type PublishResult } from './passports.ts';

/**
 * The product's one draft (docs/lifecycle.md#drafts): created or replaced whole (PUT), merged
 * (PATCH, RFC 7396), read, discarded, or published as the next version. Each change carries its
 * event; a draft is never public.
 */

const noDraft = (productId: string) =>
  new NotFoundError(`Product '${productId}' has no draft.`, { param: 'productId', suggestion: 'Create one with PUT /v1/products/{productId}/draft.' });

const changedMeanwhile = () =>
  new DuplicateError('The draft was changed by another request at the same time.', { suggestion: 'Read the draft again and repeat the change.' });

export async function requireDraft(tenant: Tenant, productId: string): Promise<DraftRecord> {
  const draft = await getDraft(tenant, productId);
  if (!draft) throw noDraft(productId);
  return draft;
}

async function save(tenant: Tenant, product: ProductRecord, data: PassportData, seen: DraftRecord | undefined, origin: Origin): Promise<DraftRecord | undefined> {
  const now = new Date().toISOString();
  const draft: DraftRecord = { productId: product.productId, data, createdAt: seen?.createdAt ?? now, updatedAt: now };
  const event = newEvent('passport.draft.updated', toDraftView(draft, product.category), origin, now);
  // The product's hasDraft mark moves with the draft, for the listing's passport status (docs/dashboard.md#passport-status).
  return (await saveDraft(tenant, draft, seen, [eventPut(tenant, event), draftMark(tenant, product.productId, true)])) === 'saved' ? draft : undefined;
}

/** `PUT`: the draft becomes `data`, whatever it was. */
export async function replaceDraft(tenant: Tenant, product: ProductRecord, data: PassportData, origin: Origin): Promise<DraftRecord> {
  checkNutrition(data, 'data', product.category); // the value checks publishing makes: a draft that could never be published is refused now (completeness is not checked: see its missing list)
  for (let attempt = 0; attempt < 3; attempt++) {
    const saved = await save(tenant, product, data, await getDraft(tenant, product.productId), origin);
    if (saved) return saved;
  }
  throw changedMeanwhile();
}

/**
 * `PATCH` with a merge patch of the draft's own shape (`{"data": {…}}`): applied to the draft as
 * read, the result validated as a whole (a 422 names the field, e.g. `data.vintage`), written only
 * if the draft did not change meanwhile (else read and applied again).
 */
export async function patchDraft(tenant: Tenant, product: ProductRecord, patch: unknown, origin: Origin): Promise<DraftRecord> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await requireDraft(tenant, product.productId);
    // Validated as data of the product's kind (a battery passport for a battery: lib/domain/passport-kinds.ts).
    const merged = validatePassportData(product, parseOrThrow(draftEnvelopeSchema, mergePatch({ data: current.data }, patch)).data);
    checkNutrition(merged, 'data', product.category);
    const saved = await save(tenant, product, merged, current, origin);
    if (saved) return saved;
  }
  throw changedMeanwhile();
}

export async function discardDraft(tenant: Tenant, product: ProductRecord, origin: Origin): Promise<DraftRecord> {
  const draft = await requireDraft(tenant, product.productId);
  const event = newEvent('passport.draft.deleted', toDraftView(draft, product.category), origin);
  if ((await deleteDraft(tenant, draft, [eventPut(tenant, event), draftMark(tenant, product.productId, false)])) === 'conflict') throw changedMeanwhile();
  return draft;
}

/**
 * Publishes the draft as the product's next version and removes it, in the version's own
 * transaction (with the `passport.published` event): a draft changed or discarded meanwhile makes
 * the transaction fail, and the publication is refused rather than publishing what was read.
 */
export async function publishDraft(tenant: Tenant, product: ProductRecord, origin: Origin): Promise<PassportVersion> {
  return (await publishDraftVersion(tenant, product, origin)).passport;
}

/** publishDraft, with the whole result: a battery passport's completeness report; `asOf` judges a battery passport on a later day. */
export async function publishDraftVersion(tenant: Tenant, product: ProductRecord, origin: Origin, asOf?: string): Promise<PublishResult> {
  const draft = await requireDraft(tenant, product.productId);
  return publishVersion(tenant, product, draft.data, {
    unlessCurrent: false,
    origin,
    ...(asOf === undefined ? {} : { asOf }),
    clearsDraft: true,
    also: () => [draftDelete(tenant, draft)],
    settle: async () => {
      const now = await getDraft(tenant, product.productId);
      if (!now) throw noDraft(product.productId);
      if (now.updatedAt !== draft.updatedAt) throw changedMeanwhile();
      return undefined; // another version won the race: publish on top of it
    },
  });
}
