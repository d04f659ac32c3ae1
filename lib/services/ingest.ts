import { eventPut } from '../data/events.ts';
import { getPublicView } from '../data/passports.ts';
import type { PublicView } from '../data/public-reads.ts';
import { getProduct } from '../data/products.ts';
import {
  advanceWatermark,
  deliveryUnrecordedItems,
  findDelivery,
  getWatermark,
  recordDelivery,
  recordDeliveryItems,
  watermarkItem,
  type DeliveryKey,
  type DeliveryRecord,
  type StoredWatermark,
} from '../data/webhook-deliveries.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { normalizeGtin } from '../domain/gtin.ts';
import { canonicalJson } from '../domain/json.ts';
import { applyMapping, sourceOf, type MapStats, type MappedProduct } from '../domain/mapping.ts';
import { passportDataSchema, type PassportData } from '../domain/passport.ts';
import { allergenContradiction, allergenContradictionMessage } from '../domain/labelling/allergen-consistency.ts';
import { createProductSchema, updateProductSchema, type CreateProductInput, type ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { isUpsertEvent, type WebhookEndpointRecord } from '../domain/webhook.ts';
import { DuplicateError, InvalidRequestError, ValidationError } from '../http/errors.ts';
import { toValidationError } from '../http/validation.ts';
import { createProduct, updateProductFields } from './products.ts';
import { checkAllergens, checkGeneralPassport, publishVersion, type PublishResult } from './passports.ts';
import { passportKindOf } from '../domain/passport-kinds.ts';
import { ensureSupplierNamed } from './suppliers.ts';

export interface IngestedProduct {
  gtin: string;
  productId: string;
  passportId: string;
  version: number;
  /** The delivery changed nothing: its data equals the current passport. */
  duplicate: boolean;
  /** The delivery created the product. */
  productCreated: boolean;
  /** Refused as older than the published data (its revision or update time): nothing was written. */
  stale?: boolean;
}

export type IngestResult = { ignored: true; eventType: string | null } | { ignored: false; products: IngestedProduct[] };

/** What identifies a delivery in the replay ledger: the SHA-256 of its raw body, and its Standard Webhooks id if it has one. */
export type DeliveryKeys = readonly DeliveryKey[];

/**
 * The most products one delivery may name: each costs a few writes, and a delivery must finish
 * well inside the ingest function's timeout (300 took about 10 s on the local stack).
 */
export const MAX_PRODUCTS_PER_DELIVERY = 100;

/** One product of the payload, checked against what the tenant has, ready to write. */
interface Plan {
  mapped: MappedProduct;
  gtin14: string;
  /** The product's public view when it exists (its current passport included). */
  view?: PublicView;
  create?: CreateProductInput;
  data: PassportData;
  /** The watermark stored for the product, when the delivery carries one. */
  stored?: StoredWatermark;
  /** Older than the published data: nothing of it is written. */
  stale?: boolean;
}

/** `mark` is older than `stored` (a mark of another kind is never compared; an equal one is not older). */
const olderThan = (mark: StoredWatermark | undefined, stored: StoredWatermark | undefined): boolean =>
  mark !== undefined && stored !== undefined && mark.kind === stored.kind && mark.value < stored.value;

const markOf = (mapped: MappedProduct): StoredWatermark | undefined => (mapped.watermark ? { kind: mapped.watermark.kind, value: mapped.watermark.value } : undefined);

/** A 422 whose param names the payload field the bad value came from. */
function fromSource(mapped: MappedProduct, error: ValidationError, prefix: string): ValidationError {
  const field = prefix ? `${prefix}.${error.param}` : (error.param ?? '');
  const source = sourceOf(mapped, field);
  return new ValidationError(`${source}: ${error.message}`, source, error.suggestion ?? 'Fix the value in the product-information system, or the mapping.');
}

async function plan(tenant: Tenant, endpoint: WebhookEndpointRecord, mapped: MappedProduct): Promise<Plan> {
  const gtin = normalizeGtin(mapped.gtin);
  if (!gtin.ok) throw new ValidationError(`${mapped.gtinAt}: not a valid GTIN. ${gtin.reason}`, mapped.gtinAt, 'Send 8, 12, 13 or 14 digits with a valid check digit.');
  const parsedData = passportDataSchema.safeParse(mapped.data);
  if (!parsedData.success) throw fromSource(mapped, toValidationError(parsedData.error), 'data');

  const view = await getPublicView(tenant, gtin.gtin14);
  // A GTIN whose product was transferred to another organization stays claimed here, and is no longer this tenant's to publish (docs/transfers.md).
  if (view?.movedTo !== undefined) {
    throw new ValidationError(`${mapped.gtinAt}: GTIN ${gtin.gtin14} belongs to a product transferred to organization ${view.movedTo}; it publishes its passport now.`, mapped.gtinAt, 'Remove the product from this endpoint\'s deliveries.');
  }
  if (view?.reservedBy !== undefined) {
    throw new ValidationError(`${mapped.gtinAt}: GTIN ${gtin.gtin14} belongs to a product being transferred to you (${view.reservedBy}).`, mapped.gtinAt, 'Send the delivery again once the transfer has completed.');
  }
  const category = view?.category ?? endpoint.defaultCategory;
  // Checked here as publishing checks it (lib/services/passports.ts checkAllergens), so that no product of the delivery is written.
  const contradiction = allergenContradiction(parsedData.data, category);
  if (contradiction) {
    const { param, message, suggestion } = allergenContradictionMessage(contradiction, (path) => sourceOf(mapped, `data.${path}`));
    throw new ValidationError(message, param, `${suggestion} Fix it in the product-information system, or map allergens.${contradiction.flag}.`);
  }
  // The other rules of publishing (lib/services/passports.ts checkGeneralPassport: a wine's free text and flags, its declaration, the figures), before anything is written too.
  if (passportKindOf(category) !== 'battery') {
    try {
      checkAllergens(parsedData.data, category, (path) => sourceOf(mapped, `data.${path}`));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(error.message, error.param ?? 'data', `${error.suggestion ?? ''} Fix it in the product-information system, or the mapping.`.trim());
    }
    try {
      checkGeneralPassport(parsedData.data, category);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw fromSource(mapped, error, '');
    }
  }
  if (view) {
    // An existing product is renamed (write() below): the name follows the rules of PATCH /v1/products.
    const name = mapped.product.name?.trim();
    const rename = name ? updateProductSchema.safeParse({ name }) : undefined;
    if (rename && !rename.success) throw fromSource(mapped, toValidationError(rename.error), '');
    const stored = mapped.watermark ? await getWatermark(tenant, view.productId) : undefined;
    const stale = view.passport !== undefined && olderThan(markOf(mapped), stored);
    return { mapped, gtin14: gtin.gtin14, view, data: parsedData.data, ...(stored ? { stored } : {}), ...(stale ? { stale } : {}) };
  }

  const input = createProductSchema.safeParse({ ...mapped.product, category: endpoint.defaultCategory, gtin: gtin.gtin14 });
  if (!input.success) throw fromSource(mapped, toValidationError(input.error), '');
  return { mapped, gtin14: gtin.gtin14, create: input.data, data: parsedData.data };
}

/** The delivery being applied: its ledger keys, and what it has done so far. */
interface Run {
  endpointId: string;
  /** Who makes the delivery's changes: the endpoint, in the ingest request (docs/lifecycle.md#event-log). */
  origin: Origin;
  keys: DeliveryKeys;
  acceptedAt: string;
  done: IngestedProduct[];
  /** Products still to write after the current one. */
  remaining: number;
  /** The ledger item went into a version's transaction. */
  recorded: boolean;
  /** The current product was created by this delivery. */
  creating: boolean;
}

/** A copy of this delivery was recorded while this one ran: answer as that copy did. */
class AlreadyRecorded extends Error {
  constructor(readonly record: DeliveryRecord) {
    super('The delivery was recorded by a concurrent copy');
  }
}

const recorded = (p: IngestedProduct) => ({ gtin: p.gtin, productId: p.productId, passportId: p.passportId, version: p.version });

/** What the delivery did to a product, as its `webhook_delivery.ingested` event tells it. */
const outcomeOf = (p: IngestedProduct): 'created' | 'published' | 'unchanged' | 'stale' =>
  p.stale ? 'stale' : p.productCreated ? 'created' : p.duplicate ? 'unchanged' : 'published';

/**
 * The put of the delivery's one `webhook_delivery.ingested` event (docs/lifecycle.md#event-log):
 * the delivery's outcome as its ledger record has it, each product with what the delivery did to it.
 */
const ingestedEventPut = (tenant: Tenant, run: Run, products: IngestedProduct[]) =>
  eventPut(
    tenant,
    newEvent(
      'webhook_delivery.ingested',
      { endpointId: run.endpointId, acceptedAt: run.acceptedAt, products: products.map((p) => ({ ...recorded(p), outcome: outcomeOf(p) })) },
      run.origin,
    ),
  );

/**
 * Publishes `data` as the product's next version unless it equals the current one, like
 * publishVersion with unlessCurrent (lib/services/passports.ts), with the delivery's ledger and the product's
 * watermark in the version's own transaction: the last product of a delivery records the delivery,
 * every earlier one holds only while no copy of it was recorded, and the watermark never moves back.
 * A transaction that fails because a copy was recorded, or a newer watermark landed, settles the
 * delivery instead of retrying.
 */
async function publishFromDelivery(tenant: Tenant, product: ProductRecord, step: Plan, run: Run): Promise<PublishResult> {
  const mark = markOf(step.mapped);
  const last = run.remaining === 0;
  const result = await publishVersion(tenant, product, step.data, {
    unlessCurrent: true,
    origin: run.origin,
    also: (current, passport) => {
      const self: IngestedProduct = { gtin: current.gtin, productId: current.productId, passportId: passport.passportId, version: passport.version, duplicate: false, productCreated: run.creating };
      return [
        ...(last
          ? recordDeliveryItems(run.endpointId, run.keys, { endpointId: run.endpointId, acceptedAt: run.acceptedAt, products: [...run.done, self].map(recorded) })
          : deliveryUnrecordedItems(run.endpointId, run.keys)),
        // The delivery's own event joins the transaction that records it in the ledger.
        ...(last && run.keys.length ? [ingestedEventPut(tenant, run, [...run.done, self])] : []),
        ...(mark ? [watermarkItem(tenant, current.productId, mark, passport.createdAt)] : []),
      ];
    },
    settle: async (current) => {
      const copy = await findDelivery(run.endpointId, run.keys);
      if (copy) throw new AlreadyRecorded(copy);
      if (mark && olderThan(mark, await getWatermark(tenant, current.productId))) {
        const view = await getPublicView(tenant, current.gtin);
        if (view?.passport) return { passport: view.passport, duplicate: true, stale: true };
      }
      return undefined;
    },
  });
  if (last && !result.duplicate) run.recorded = true;
  return result;
}

async function write(tenant: Tenant, step: Plan, run: Run): Promise<IngestedProduct> {
  const name = step.mapped.product.name?.trim();
  const current = step.view?.passport;
  const mark = markOf(step.mapped);
  if (step.stale && step.view && current) {
    return { gtin: step.view.gtin, productId: step.view.productId, passportId: current.passportId, version: current.version, duplicate: true, productCreated: false, stale: true };
  }
  // The common repeat: nothing differs from what the public view already shows, so nothing is read or written.
  if (step.view && current && canonicalJson(current.data) === canonicalJson(step.data) && (!name || name === step.view.name)) {
    if (mark && (!step.stored || step.stored.kind !== mark.kind || step.stored.value < mark.value)) {
      await advanceWatermark(tenant, step.view.productId, mark, new Date().toISOString());
    }
    return { gtin: step.view.gtin, productId: step.view.productId, passportId: current.passportId, version: current.version, duplicate: true, productCreated: false };
  }
  let product = step.view ? await getProduct(tenant, step.view.productId, true) : undefined;
  let productCreated = false;
  if (!product && step.create) {
    try {
      product = await createProduct(tenant, step.create, run.origin);
      productCreated = true;
    } catch (error) {
      // A concurrent delivery created it first: use theirs.
      if (!(error instanceof DuplicateError)) throw error;
      const view = await getPublicView(tenant, step.gtin14);
      product = view ? await getProduct(tenant, view.productId, true) : undefined;
    }
  }
  if (!product) throw new Error(`Product ${step.gtin14} vanished during ingest`);
  if (!productCreated && name && name !== product.name) {
    product = await updateProductFields(tenant, product, { name }, run.origin);
  }
  run.creating = productCreated;
  for (const producer of step.mapped.producers) await ensureSupplierNamed(tenant, producer, run.origin);
  const { passport, duplicate, stale } = await publishFromDelivery(tenant, product, step, run);
  if (duplicate && !stale && mark) await advanceWatermark(tenant, product.productId, mark, new Date().toISOString());
  return { gtin: product.gtin, productId: product.productId, passportId: passport.passportId, version: passport.version, duplicate, productCreated, ...(stale ? { stale } : {}) };
}

/** The answer to a delivery the ledger already holds: what it published, as duplicates. */
const replayed = (record: DeliveryRecord): IngestResult => ({
  ignored: false,
  products: record.products.map((p) => ({ ...p, duplicate: true, productCreated: false })),
});

export interface IngestOptions {
  /** The delivery's keys in the replay ledger (docs/security.md): without them nothing is recorded or refused as a replay. */
  keys?: DeliveryKeys;
  /** Work counters of the mapping (tests and benchmarks). */
  stats?: MapStats;
  /** The ingest request's Request-Id, which the delivery's events carry (docs/lifecycle.md#event-log). */
  requestId?: string | null;
}

/**
 * Applies a verified delivery: refuses a replay of one already accepted (the ledger), maps the
 * payload with the endpoint's mapping (counting its products first), checks every product it names
 * before writing anything, refuses products older than their published data (the watermark), then
 * creates each new product and publishes a passport version wherever the mapped data differs from
 * the current one. Repeating a delivery changes nothing.
 *
 * Events (docs/lifecycle.md#event-log): each change writes its own (`product.created`,
 * `product.updated`, `passport.published`) in its transaction, with the endpoint as actor; the
 * delivery writes one `webhook_delivery.ingested` in the transaction that records it in the ledger
 * (on its own without ledger keys). A replay, an ignored event type, and a delivery whose every
 * product is stale write nothing.
 */
export async function ingest(endpoint: WebhookEndpointRecord, payload: unknown, options: IngestOptions = {}): Promise<IngestResult> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new InvalidRequestError('The payload must be a JSON object.');
  }
  const body = payload as Record<string, unknown>;
  if (!isUpsertEvent(body)) return { ignored: true, eventType: typeof body.event_type === 'string' ? body.event_type : null };
  const keys = options.keys ?? [];
  if (keys.length) {
    const seen = await findDelivery(endpoint.endpointId, keys);
    if (seen) return replayed(seen);
  }

  const mapped = applyMapping(body, endpoint.mapping, { maxProducts: MAX_PRODUCTS_PER_DELIVERY, ...(options.stats ? { stats: options.stats } : {}) });
  if (!mapped.ok && mapped.tooMany !== undefined) {
    throw new ValidationError(
      `A delivery may describe at most ${MAX_PRODUCTS_PER_DELIVERY} products; this one describes ${mapped.tooMany}.`,
      mapped.param,
      'Split the delivery: send one event per product, or per batch of at most 100.',
    );
  }
  if (!mapped.ok) throw new ValidationError(mapped.message, mapped.param, 'Check the payload against the endpoint’s mapping.');
  const tenant: Tenant = { orgId: endpoint.orgId, environment: endpoint.environment };
  const plans: Plan[] = [];
  for (const product of mapped.products) plans.push(await plan(tenant, endpoint, product));

  const run: Run = {
    endpointId: endpoint.endpointId,
    origin: { actor: { type: 'webhook', id: endpoint.endpointId }, requestId: options.requestId ?? null },
    keys,
    acceptedAt: new Date().toISOString(),
    done: [],
    remaining: plans.length,
    recorded: keys.length === 0,
    creating: false,
  };
  try {
    for (const step of plans) {
      run.remaining--;
      run.done.push(await write(tenant, step, run));
    }
  } catch (error) {
    if (error instanceof AlreadyRecorded) return replayed(error.record);
    throw error;
  }
  // No version carried the ledger item (the data was current), or there is no ledger key: record
  // the delivery and its event on their own, unless every product was stale (then nothing at all
  // is written).
  if ((!run.recorded || !keys.length) && !run.done.every((p) => p.stale)) {
    await recordDelivery(endpoint.endpointId, keys, { endpointId: endpoint.endpointId, acceptedAt: run.acceptedAt, products: run.done.map(recorded) }, [
      ingestedEventPut(tenant, run, run.done),
    ]);
  }
  return { ignored: false, products: run.done };
}
