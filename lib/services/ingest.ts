import { getPublicView, type PublicView } from '../data/passports.ts';
import { getProduct, updateProduct } from '../data/products.ts';
import { normalizeGtin } from '../domain/gtin.ts';
import { canonicalJson } from '../domain/json.ts';
import { applyMapping, sourceOf, type MappedProduct } from '../domain/mapping.ts';
import { passportDataSchema, type PassportData } from '../domain/passport.ts';
import { createProductSchema, updateProductSchema, type CreateProductInput } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { isUpsertEvent, type WebhookEndpointRecord } from '../domain/webhook.ts';
import { DuplicateError, InvalidRequestError, ValidationError } from '../http/errors.ts';
import { toValidationError } from '../http/validation.ts';
import { publishIfChanged } from './passports.ts';
import { createProduct } from './products.ts';
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
}

export type IngestResult = { ignored: true; eventType: string | null } | { ignored: false; products: IngestedProduct[] };

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
}

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
  if (view) {
    // An existing product is renamed (write() below): the name follows the rules of PATCH /v1/products.
    const name = mapped.product.name?.trim();
    const rename = name ? updateProductSchema.safeParse({ name }) : undefined;
    if (rename && !rename.success) throw fromSource(mapped, toValidationError(rename.error), '');
    return { mapped, gtin14: gtin.gtin14, view, data: parsedData.data };
  }

  const input = createProductSchema.safeParse({ ...mapped.product, category: endpoint.defaultCategory, gtin: gtin.gtin14 });
  if (!input.success) throw fromSource(mapped, toValidationError(input.error), '');
  return { mapped, gtin14: gtin.gtin14, create: input.data, data: parsedData.data };
}

async function write(tenant: Tenant, step: Plan): Promise<IngestedProduct> {
  const name = step.mapped.product.name?.trim();
  const current = step.view?.passport;
  // The common repeat: nothing differs from what the public view already shows, so nothing is read or written.
  if (step.view && current && canonicalJson(current.data) === canonicalJson(step.data) && (!name || name === step.view.name)) {
    return { gtin: step.view.gtin, productId: step.view.productId, passportId: current.passportId, version: current.version, duplicate: true, productCreated: false };
  }
  let product = step.view ? await getProduct(tenant, step.view.productId, true) : undefined;
  let productCreated = false;
  if (!product && step.create) {
    try {
      product = await createProduct(tenant, step.create);
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
    product = (await updateProduct(tenant, product, { name }, new Date().toISOString())) ?? product;
  }
  for (const producer of step.mapped.producers) await ensureSupplierNamed(tenant, producer);
  const { passport, duplicate } = await publishIfChanged(tenant, product, step.data);
  return { gtin: product.gtin, productId: product.productId, passportId: passport.passportId, version: passport.version, duplicate, productCreated };
}

/**
 * Applies a verified delivery: maps the payload with the endpoint's mapping, checks every product
 * it names before writing anything, then creates each new product and publishes a passport version
 * wherever the mapped data differs from the current one. Repeating a delivery changes nothing.
 */
export async function ingest(endpoint: WebhookEndpointRecord, payload: unknown): Promise<IngestResult> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new InvalidRequestError('The payload must be a JSON object.');
  }
  const body = payload as Record<string, unknown>;
  if (!isUpsertEvent(body)) return { ignored: true, eventType: typeof body.event_type === 'string' ? body.event_type : null };

  const mapped = applyMapping(body, endpoint.mapping);
  if (!mapped.ok) throw new ValidationError(mapped.message, mapped.param, 'Check the payload against the endpoint’s mapping.');
  if (mapped.products.length > MAX_PRODUCTS_PER_DELIVERY) {
    const first = mapped.products[0]?.gtinAt ?? 'gtin';
    throw new ValidationError(
      `A delivery may describe at most ${MAX_PRODUCTS_PER_DELIVERY} products; this one describes ${mapped.products.length}.`,
      first.replace(/\[\d+\](?=[^[]*$)/, '[]'),
      'Split the delivery: send one event per product, or per batch of at most 100.',
    );
  }
  const tenant: Tenant = { orgId: endpoint.orgId, environment: endpoint.environment };
  const plans: Plan[] = [];
  for (const product of mapped.products) plans.push(await plan(tenant, endpoint, product));
  const products: IngestedProduct[] = [];
  for (const step of plans) products.push(await write(tenant, step));
  return { ignored: false, products };
}
