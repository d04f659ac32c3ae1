import type { PublicView } from '../../lib/data/public-reads.ts';
import { getLabelTermSet } from '../../lib/data/scan-reads.ts';
import type { LabelTerms } from '../../lib/domain/labelling-term.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';

/**
 * The organization's corrections of legal terms on a version's pages (docs/labelling.md#correcting-a-term).
 * A page item names the set it was published with by its digest (`labelTermSet`); the set is stored
 * once per tenant and never changes, so a warm instance keeps what it read: the first page of a set
 * costs one more GetItem (at most MAX_TERM_OVERRIDES_BYTES of texts), every later page of any
 * version published with it none. Page items written before the sets carry their corrections
 * themselves (`labelTerms`), and are shown with those. The scan itself (the 307) never reads them.
 */

/** At most this many sets are remembered (each at most 64 KiB of texts: 4 MiB in all), the oldest forgotten first. */
const MAX_SETS = 64;
const sets = new Map<string, Promise<LabelTerms | undefined>>();

/** The set `digest` of `tenant`, from memory or one GetItem; a failed read is not remembered. */
function labelTermSet(tenant: Tenant, digest: string): Promise<LabelTerms | undefined> {
  const key = `${tenant.orgId}/${tenant.environment}/${digest}`;
  const known = sets.get(key);
  if (known) {
    // Most recently used last: the map forgets from its start.
    sets.delete(key);
    sets.set(key, known);
    return known;
  }
  const read = getLabelTermSet(tenant, digest);
  if (sets.size >= MAX_SETS) sets.delete(sets.keys().next().value!);
  sets.set(key, read);
  read.catch(() => {
    if (sets.get(key) === read) sets.delete(key);
  });
  return read;
}

/** A version page with its corrections filled in from its set (unchanged when it names none or carries its own). */
export async function withLabelTerms<T extends PublicView>(tenant: Tenant, page: T): Promise<T> {
  if (page.labelTerms !== undefined || page.labelTermSet === undefined) return page;
  const terms = await labelTermSet(tenant, page.labelTermSet);
  return terms ? { ...page, labelTerms: terms } : page;
}

