import type { PassportVersion, Passport } from './passport.ts';
import type { Category } from './product.ts';

/** The read form of a passport version: a plain function (no zod), so the resolver's bundle stays small. */
export function toPassportView(
  product: { productId: string; name: string; category: Category; gtin: string; qrCodeUrl: string },
  passport: PassportVersion,
): Passport {
  return {
    productId: product.productId,
    passportId: passport.passportId,
    name: product.name,
    category: product.category,
    gtin: product.gtin,
    data: passport.data,
    qrCodeUrl: product.qrCodeUrl,
    status: passport.status,
    version: passport.version,
    lastUpdated: passport.createdAt,
    publishedAt: passport.publishedAt,
    digest: passport.digest,
    previousDigest: passport.previousDigest,
  };
}
