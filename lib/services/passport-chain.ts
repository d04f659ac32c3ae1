import { readUnitVersions, replaceUnitChain } from '../data/items.ts';
import { getProduct } from '../data/products.ts';
import { listAllPassportVersions } from '../data/passports.ts';
import { verifyChain, type ChainBreak } from '../domain/digest.ts';
import type { Tenant } from '../domain/tenant.ts';
import { longestUnitChain, unitChainFindings, type UnitChainFinding, type UnitKind, type UnitRecord } from '../domain/unit.ts';
import { readUnitBackup } from './backup-restore.ts';

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

/** A version as a repair reports it: its number, digest, when it was made, and where it was read. */
export interface RepairVersion {
  version: number;
  digest: string;
  updatedAt: string;
  /** Read from the table (its current or an archived item) or only from the backup copy. */
  from: 'table' | 'backup';
}

export interface UnitRepairReport {
  kind: UnitKind;
  gtin: string;
  value: string;
  /** What was wrong before (lib/domain/unit.ts unitChainFindings over the table's versions); empty: intact. */
  findings: UnitChainFinding[];
  /** The chain kept: versions 1..n, version n the current one after the repair. */
  chain: RepairVersion[];
  /** Versions on no consistent chain from version 1, whole, so that nothing is dropped unseen (re-apply one with a PUT if it should stay). */
  dropped: UnitRecord[];
  /** `intact`: nothing to do; `repaired`; `planned` (a dry run); `conflict`: the record changed meanwhile, nothing current replaced (run again). */
  outcome: 'intact' | 'repaired' | 'planned' | 'conflict';
}

/**
 * Repairs a batch's or item's digest chain (docs/operator-cli.md#repairing-a-batch-or-an-item): reads
 * every version the table holds (current and archived) and, with `backup`, those of the backup copy
 * (the copy keeps each version first made current, so it holds an acknowledged version a forked
 * write replaced in the table); keeps the longest consistent chain from version 1 (longestUnitChain),
 * stores it as the record's history, its newest version current, and reports the versions on no
 * such chain. Undefined when neither side holds any version of the record.
 */
export async function repairUnitChain(
  tenant: Tenant,
  gtin14: string,
  kind: UnitKind,
  value: string,
  options: { backup: boolean; dryRun: boolean },
): Promise<UnitRepairReport | undefined> {
  const stored = await readUnitVersions(tenant, kind, gtin14, value);
  const inTable = [...stored.archived.map(({ unit }) => unit), ...(stored.current ? [stored.current] : [])];
  const fromBackup = options.backup ? await readUnitBackup(tenant, kind, gtin14, value) : [];
  if (!inTable.length && !fromBackup.length) return undefined;
  const tableDigests = new Set(inTable.map((unit) => unit.digest));
  const chain = longestUnitChain([...inTable, ...fromBackup]);
  const kept = new Set(chain.map((unit) => unit.digest));
  const dropped = [...new Map([...inTable, ...fromBackup].filter((unit) => !kept.has(unit.digest)).map((unit) => [unit.digest, unit])).values()].sort((a, b) => a.version - b.version);
  const findings = unitChainFindings(inTable);
  const head = chain.at(-1);
  const report = {
    kind,
    gtin: gtin14,
    value,
    findings,
    chain: chain.map(({ version, digest, updatedAt }): RepairVersion => ({ version, digest, updatedAt, from: tableDigests.has(digest) ? 'table' : 'backup' })),
    dropped,
  };
  // Intact: the table holds exactly the chain, its newest version current.
  const intact = findings.length === 0 && head !== undefined && stored.current?.digest === head.digest && inTable.every((unit) => kept.has(unit.digest));
  if (intact) return { ...report, outcome: 'intact' };
  if (!head) throw new Error(`No version 1 of the ${kind} '${value}' holds (its digest or link), in the table or the backup copy: nothing to rebuild the chain from.`);
  if (options.dryRun) return { ...report, outcome: 'planned' };
  return { ...report, outcome: (await replaceUnitChain(tenant, chain, stored)) === 'written' ? 'repaired' : 'conflict' };
}
