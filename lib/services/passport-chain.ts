import { getProduct } from '../data/products.ts';
import { listAllPassportVersions } from '../data/passports.ts';
import { verifyChain, type ChainBreak } from '../domain/digest.ts';
import type { Tenant } from '../domain/tenant.ts';

export interface ChainReport {
  productId: string;
  versions: { version: number; publishedAt: string; digest: string }[];
  /** The first place the chain breaks, or undefined when it holds from version 1 to the product's current version. */
  broken?: ChainBreak;
}

/**
 * Recomputes a product's digest chain from storage (docs/lifecycle.md#digest-chain): every
 * version's digest from its stored data, every link to its predecessor, no gap, and the product's
 * current version and digest matching the newest version. Undefined for an unknown product.
 */
export async function verifyPassportChain(tenant: Tenant, productId: string): Promise<ChainReport | undefined> {
  const product = await getProduct(tenant, productId, true);
  if (!product) return undefined;
  const versions = await listAllPassportVersions(tenant, productId);
  const report: ChainReport = { productId, versions: versions.map(({ version, publishedAt, digest }) => ({ version, publishedAt, digest })) };
  const broken = verifyChain(versions);
  if (broken) return { ...report, broken };
  const newest = versions.at(-1);
  if (versions.length !== product.passportVersion) {
    return { ...report, broken: { version: versions.length + 1, problem: 'gap', expected: `version ${product.passportVersion}`, found: `${versions.length} versions stored` } };
  }
  if (newest && newest.digest !== product.passportDigest) {
    return { ...report, broken: { version: newest.version, problem: 'digest', expected: newest.digest, found: `product records ${product.passportDigest ?? 'no digest'}` } };
  }
  return report;
}
