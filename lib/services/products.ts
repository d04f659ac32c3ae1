import { config } from '../config.ts';
import { getDefaultDomain } from '../data/domains.ts';
import { getProduct, insertProduct } from '../data/products.ts';
import { digitalLinkUri } from '../domain/digital-link.ts';
import { brandDigitalLinkUri } from '../domain/domain.ts';
import { newProductId, UUID_PATTERN } from '../domain/ids.ts';
import type { CreateProductInput, ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { DuplicateError, NotFoundError } from '../http/errors.ts';

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
export async function createProduct(tenant: Tenant, input: CreateProductInput, now = new Date().toISOString()): Promise<ProductRecord> {
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
  if ((await insertProduct(product)) === 'duplicate') {
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
