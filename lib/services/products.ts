import { config } from '../config.ts';
import { getDefaultDomain } from '../data/domains.ts';
import { eventPut } from '../data/events.ts';
import { getGtinClaim, getProduct, insertProduct, setProductStatus, updateProduct } from '../data/products.ts';
import { digitalLinkUri } from '../domain/digital-link.ts';
import { brandDigitalLinkUri } from '../domain/domain.ts';
import { newProductId, UUID_PATTERN } from '../domain/ids.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { applyProductChanges, toProductView, type CreateProductInput, type ProductRecord, type UpdateProductInput } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { DuplicateError, NotFoundError } from '../http/errors.ts';
import { statusChange } from './status-list.ts';

/**
 * The `qrCodeUrl` of a new product: on the organization's verified default domain for a live
 * product when it has one (one GetItem of its default pointer, docs/brand-domains.md), else on the
 * platform resolver. Test products always stay on the platform.
 */
async function newQrCodeUrl(tenant: Tenant, gtin14: string): Promise<string> {
  const brand = tenant.environment === 'live' ? await getDefaultDomain(tenant.orgId) : undefined;
  return brand ? brandDigitalLinkUri(brand.hostname, gtin14) : digitalLinkUri(config().resolverOrigin, tenant, gtin14);
}

/**
 * Registers a product under a GTIN that is new to the tenant; its `qrCodeUrl` is fixed here for
 * the life of the product (a later default domain never changes it). 409 when the tenant already
 * has the GTIN.
 */
export async function createProduct(tenant: Tenant, input: CreateProductInput, origin: Origin, now = new Date().toISOString()): Promise<ProductRecord> {
  const product: ProductRecord = {
    productId: newProductId(),
    ...tenant,
    gtin: input.gtin,
    name: input.name,
    category: input.category,
    ...(input.brand === undefined ? {} : { brand: input.brand }),
    ...(input.sku === undefined ? {} : { sku: input.sku }),
    ...(input.economicOperatorId === undefined ? {} : { economicOperatorId: input.economicOperatorId }),
    ...(input.facilityId === undefined ? {} : { facilityId: input.facilityId }),
    ...(input.commodityCode === undefined ? {} : { commodityCode: input.commodityCode }),
    granularity: input.granularity ?? 'model',
    qrCodeUrl: await newQrCodeUrl(tenant, input.gtin),
    createdAt: now,
    updatedAt: now,
    passportVersion: 0,
  };
  const event = newEvent('product.created', toProductView(product), origin, now);
  if ((await insertProduct(product, [eventPut(tenant, event)])) === 'duplicate') {
    // A GTIN whose product was transferred away, or is being transferred in, stays claimed (docs/transfers.md#the-printed-qr-codes).
    const claim = await getGtinClaim(tenant, input.gtin);
    if (claim?.movedTo !== undefined && claim.reservedBy === undefined) {
      throw new DuplicateError(`GTIN ${input.gtin} belongs to a product you transferred to organization ${claim.movedTo}: its printed QR codes lead there, so the GTIN is not free for another product of yours.`, {
        param: 'gtin',
        suggestion: 'Give the new product a GTIN of its own.',
      });
    }
    if (claim?.reservedBy !== undefined) {
      throw new DuplicateError(`GTIN ${input.gtin} belongs to a product being transferred to you (${claim.reservedBy}).`, { param: 'gtin', suggestion: 'Wait for the transfer to complete: the product is then yours.' });
    }
    throw new DuplicateError(`A product with GTIN ${input.gtin} already exists.`, {
      param: 'gtin',
      suggestion: 'Use the existing product, or check the GTIN.',
    });
  }
  return product;
}

/** The tenant's product, or a 404 naming `param` (also for another tenant's product). */
export async function requireProduct(tenant: Tenant, productId: string, param = 'productId'): Promise<ProductRecord> {
  const product = UUID_PATTERN.test(productId) ? await getProduct(tenant, productId.toLowerCase()) : undefined;
  if (!product) throw new NotFoundError(`No product with id '${productId}'.`, { param });
  return product;
}

/** Applies a partial update, with its `product.updated` event in the same transaction. */
export async function updateProductFields(tenant: Tenant, product: ProductRecord, changes: UpdateProductInput, origin: Origin): Promise<ProductRecord> {
  const now = new Date().toISOString();
  const event = newEvent('product.updated', toProductView(applyProductChanges(product, changes, now)), origin, now);
  const updated = await updateProduct(tenant, product, changes, now, [eventPut(tenant, event)]);
  if (!updated) throw new NotFoundError(`No product with id '${product.productId}'.`, { param: 'productId' });
  return updated;
}

/**
 * Withdraws a product (its Digital Link answers 410) or reinstates it, with the event in the same
 * transaction (docs/lifecycle.md#withdrawal). 409 when it is already in that state.
 */
export async function changeProductStatus(
  tenant: Tenant,
  product: ProductRecord,
  to: { status: 'withdrawn'; reason: string } | { status: 'active' },
  origin: Origin,
): Promise<ProductRecord> {
  const at = new Date().toISOString();
  const { withdrawnAt: _at, withdrawalReason: _reason, status: _status, ...active } = product;
  const after: ProductRecord =
    to.status === 'withdrawn' ? { ...active, status: 'withdrawn', withdrawnAt: at, withdrawalReason: to.reason, updatedAt: at } : { ...active, updatedAt: at };
  const event = newEvent(to.status === 'withdrawn' ? 'product.withdrawn' : 'product.reinstated', toProductView(after), origin, at);
  // The product's status list bit flips in the same transaction (docs/credentials.md#revocation).
  const status = await statusChange(tenant, product.productId, to.status === 'withdrawn');
  if ((await setProductStatus(tenant, product, { ...to, at }, [eventPut(tenant, event), ...status.items])) === 'unchanged') {
    throw new DuplicateError(to.status === 'withdrawn' ? 'The product is already withdrawn.' : 'The product is not withdrawn.', {
      param: 'productId',
      suggestion: to.status === 'withdrawn' ? 'Reinstate it with POST /v1/products/{productId}/reinstate.' : 'Only a withdrawn product can be reinstated.',
    });
  }
  await status.settle();
  return after;
}
