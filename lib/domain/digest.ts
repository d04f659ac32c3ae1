import { createHash } from 'node:crypto';
import { storedData } from './battery/units-migration.ts';
import { jcs } from './jcs.ts';
import type { PassportData } from './passport.ts';

/**
 * The digest chain of a product's passport versions (docs/lifecycle.md#digest-chain): each version's
 * digest covers its data, the product's identity, when it was published and the previous version's
 * digest, so changing or removing any stored version breaks every digest after it.
 */
export interface DigestInput {
  data: PassportData;
  /** The product's GTIN-14 when the version was published. */
  gtin: string;
  previousDigest: string | null;
  productId: string;
  /** The ISO 8601 instant the API shows as the version's `publishedAt`. */
  publishedAt: string;
  version: number;
}

/** `sha256:` + lowercase hex SHA-256 of the JCS form of exactly these six members. */
export function passportDigest(input: DigestInput): string {
  const { data, gtin, previousDigest, productId, publishedAt, version } = input;
  const canonical = jcs({ data, gtin, previousDigest, productId, publishedAt, version });
  return `sha256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}


/** Where a stored chain breaks, if it does: the first version whose digest or link does not hold. */
export interface ChainBreak {
  version: number;
  problem: 'digest' | 'previousDigest' | 'gap';
  expected: string;
  found: string;
}

/** Checks versions 1..n (oldest first, as stored): each digest recomputed, each link to its predecessor, no gap. */
export function verifyChain(versions: readonly (DigestInput & { digest: string })[]): ChainBreak | undefined {
  let previous: string | null = null;
  for (const [index, version] of versions.entries()) {
    if (version.version !== index + 1) return { version: index + 1, problem: 'gap', expected: `version ${index + 1}`, found: `version ${version.version}` };
    if (version.previousDigest !== previous) {
      return { version: version.version, problem: 'previousDigest', expected: String(previous), found: String(version.previousDigest) };
    }
    // Over the data as stored: a version read in older units is converted, its digest covers what was stored (docs/battery.md#units).
    const recomputed = passportDigest({ ...version, data: storedData(version) });
    if (recomputed !== version.digest) return { version: version.version, problem: 'digest', expected: recomputed, found: version.digest };
    previous = version.digest;
  }
  return undefined;
}
