import { getProduct } from '../data/products.ts';
import { getPassportVersion, insertPassportVersion } from '../data/passports.ts';
import { canonicalJson } from '../domain/json.ts';
import { newPrefixedId } from '../domain/ids.ts';
import type { Passport, PassportData } from '../domain/passport.ts';
import type { Product } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { NotFoundError } from '../http/errors.ts';

const MAX_ATTEMPTS = 50;

/**
 * Publishes `data` as the product's next passport version (n + 1). Concurrent publishers retry
 * on a fresh read until each gets its own version, so versions have no gaps and no duplicates.
 */
export async function publishPassport(tenant: Tenant, product: Product, data: PassportData): Promise<Passport> {
  let current: Product | undefined = product;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (!current) break;
    const passport: Passport = {
      passportId: newPrefixedId('ps'),
      productId: current.productId,
      version: current.passportVersion + 1,
      status: 'published',
      data,
      createdAt: new Date().toISOString(),
    };
    if ((await insertPassportVersion(tenant, current, passport)) === 'created') return passport;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * attempt)));
    current = await getProduct(tenant, product.productId, true);
  }
  if (!current) throw new NotFoundError(`No product with id '${product.productId}'.`, { param: 'productId' });
  throw new Error(`Could not publish a passport version for ${product.productId} after ${MAX_ATTEMPTS} attempts`);
}

/**
 * Publishes `data` as the next version unless it equals the current version's data, in which case
 * the current version is returned as a duplicate. Two concurrent callers with the same data end
 * with one new version between them: the one that loses the race finds its data already current.
 */
export async function publishIfChanged(
  tenant: Tenant,
  product: Product,
  data: PassportData,
): Promise<{ passport: Passport; duplicate: boolean }> {
  const wanted = canonicalJson(data);
  let current: Product | undefined = product;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS && current; attempt++) {
    const latest = current.passportVersion ? await getPassportVersion(tenant, current.productId, current.passportVersion) : undefined;
    if (latest && canonicalJson(latest.data) === wanted) return { passport: latest, duplicate: true };
    const passport: Passport = {
      passportId: newPrefixedId('ps'),
      productId: current.productId,
      version: current.passportVersion + 1,
      status: 'published',
      data,
      createdAt: new Date().toISOString(),
    };
    if ((await insertPassportVersion(tenant, current, passport)) === 'created') return { passport, duplicate: false };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * attempt)));
    current = await getProduct(tenant, product.productId, true);
  }
  if (!current) throw new NotFoundError(`No product with id '${product.productId}'.`, { param: 'productId' });
  throw new Error(`Could not publish a passport version for ${product.productId} after ${MAX_ATTEMPTS} attempts`);
}
