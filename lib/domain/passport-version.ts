import { passportDigest } from './digest.ts';
import { newPrefixedId } from './ids.ts';
import type { PassportData, PassportVersion } from './passport.ts';
import type { ProductRecord } from './product.ts';

/**
 * The product's next passport version (n + 1) with `data`, sealed into the digest chain: its
 * `previousDigest` is the product's current digest (null for version 1), and its digest covers it
 * (docs/lifecycle.md#digest-chain). The publishing transaction succeeds only while the product is
 * still at version n, so the link it names is the one it follows.
 */
export function nextPassportVersion(
  product: Pick<ProductRecord, 'productId' | 'gtin' | 'passportVersion' | 'passportDigest'>,
  data: PassportData,
  now: string = new Date().toISOString(),
): PassportVersion {
  const version = product.passportVersion + 1;
  const previousDigest = version === 1 ? null : (product.passportDigest ?? null);
  const digest = passportDigest({ data, gtin: product.gtin, previousDigest, productId: product.productId, publishedAt: now, version });
  return {
    passportId: newPrefixedId('ps'),
    productId: product.productId,
    version,
    status: 'published',
    data,
    createdAt: now,
    publishedAt: now,
    digest,
    previousDigest,
    gtin: product.gtin,
  };
}
