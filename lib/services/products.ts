import { config } from '../config.ts';
import { getProduct, insertProduct } from '../data/products.ts';
import { digitalLinkUri } from '../domain/digital-link.ts';
import { newProductId, UUID_PATTERN } from '../domain/ids.ts';
import type { CreateProductInput, ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { DuplicateError, NotFoundError } from '../http/errors.ts';

/**
 * Registers a product under a GTIN that is new to the tenant; its `qrCodeUrl` is fixed here for
 * the life of the product. 409 when the tenant already has the GTIN.
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
    qrCodeUrl: digitalLinkUri(config().resolverOrigin, tenant, input.gtin),
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
