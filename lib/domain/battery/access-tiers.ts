/**
 * Who may read a passport's elements, for every product category (docs/battery.md#audiences). Each
 * element has a set of audiences; a reader belongs to a set of audiences and reads an element when
 * the two sets meet; the passport's owner reads everything. The names say nothing about batteries
 * so that other categories use the same ones (a wine's or a food's elements are all `public`). No
 * imports: the dashboard may read it.
 *
 * Regulation (EU) 2023/1542 Art. 77(2), second and third subparagraphs (docs/battery.md#audiences):
 * - `public`: anyone (Art. 77(2)(a): Annex XIII point 1).
 * - `authority`: notified bodies, market surveillance authorities and the Commission
 *   (Art. 77(2)(b): Annex XIII points 2 and 3; not point 4).
 * - `dismantling_repair_repurposing_recycling`: persons with a legitimate interest for the purpose
 *   of the third subparagraph, point (a): the dismantling of the battery, its safety measures and
 *   the detailed composition of the model, for repairers, remanufacturers, second-life operators
 *   and recyclers (Art. 77(2)(c): Annex XIII point 2 in our reading).
 * - `energy_services`: persons with a legitimate interest for the purpose of point (b): for an
 *   individual battery, its purchaser, or parties on its behalf, making it available to independent
 *   aggregators or energy market participants (Art. 77(2)(c): Annex XIII point 4 in our reading).
 *
 * Art. 77(2)(c) gives "points 2 and 4" to persons with a legitimate interest "for the purposes
 * referred to in the third subparagraph, points (a) and (b)" without pairing a point with a
 * purpose; pairing them by what each purpose is about (a: dismantling and composition, point 2;
 * b: an individual battery, point 4) is our reading, unconfirmed (PAIRING_CONFIRMED).
 *
 * The three tiers (`public`, `legitimate_interest`, `authority`) stay as summaries: an element's
 * `tier`, a grant's `tier` and an answer's `accessTier`.
 */
export const ACCESS_TIERS = ['public', 'legitimate_interest', 'authority'] as const;
export type AccessTier = (typeof ACCESS_TIERS)[number];

/** The purposes of Art. 77(2) third subparagraph, points (a) and (b), in that order. */
export const PURPOSES = ['dismantling_repair_repurposing_recycling', 'energy_services'] as const;
export type Purpose = (typeof PURPOSES)[number];

export const AUDIENCES = ['public', 'authority', ...PURPOSES] as const;
export type Audience = (typeof AUDIENCES)[number];

/** The audiences of each Annex XIII point (Art. 77(2)); test/unit/battery-audiences.test.ts holds the map to it. */
export const AUDIENCES_OF_POINT: Readonly<Record<1 | 2 | 3 | 4, readonly Audience[]>> = {
  1: ['public'],
  2: ['authority', 'dismantling_repair_repurposing_recycling'],
  3: ['authority'],
  4: ['energy_services'],
};

/** False: the pairing of purposes with Annex XIII points 2 and 4 is our reading of Art. 77(2)(c), not its words. */
export const PAIRING_CONFIRMED = false;

/**
 * The audiences an element without an Annex XIII point has when the element map gives it a tier
 * only: a `legitimate_interest` element (a voluntary attribute the consortium's longlist gives to
 * persons with a legitimate interest, without a purpose) is read for either purpose.
 */
export const AUDIENCES_OF_TIER: Readonly<Record<AccessTier, readonly Audience[]>> = {
  public: ['public'],
  legitimate_interest: PURPOSES,
  authority: ['authority'],
};

const isPurpose = (audience: Audience): audience is Purpose => (PURPOSES as readonly string[]).includes(audience);

/** The tier a set of audiences is summarised as: public if anyone reads it, else legitimate_interest if a purpose does, else authority. */
export const tierOfAudiences = (audiences: Iterable<Audience>): AccessTier => {
  const all = [...audiences];
  return all.includes('public') ? 'public' : all.some(isPurpose) ? 'legitimate_interest' : 'authority';
};

/**
 * A reader by name: a tier (`legitimate_interest`: a grant of both purposes, as every
 * legitimate-interest grant read before purposes existed), or the owner.
 */
export type NamedReader = AccessTier | 'owner';
export const READERS: readonly NamedReader[] = [...ACCESS_TIERS, 'owner'];

/** Who reads: a named reader, or the audiences it belongs to (`public` is always among them). */
export type Reader = NamedReader | readonly Audience[];

const AUDIENCES_OF_READER: Readonly<Record<NamedReader, readonly Audience[]>> = {
  public: ['public'],
  legitimate_interest: ['public', ...PURPOSES],
  authority: ['public', 'authority'],
  owner: AUDIENCES,
};

/** The audiences a reader belongs to, `public` always among them, in the order of AUDIENCES. */
export function audiencesOf(reader: Reader): Audience[] {
  const set = new Set<Audience>(typeof reader === 'string' ? AUDIENCES_OF_READER[reader] : reader);
  set.add('public');
  return AUDIENCES.filter((audience) => set.has(audience));
}

/** True when `reader` may see an element read by `audiences`: the owner always, anyone else when the sets meet. */
export const canRead = (reader: Reader, audiences: readonly Audience[]): boolean => {
  if (reader === 'owner') return true;
  const mine = audiencesOf(reader);
  return audiences.some((audience) => mine.includes(audience));
};

/** The tier a reader is summarised as (an answer's `accessTier`): the owner, authority, legitimate_interest (any purpose) or public. */
export const tierOfReader = (reader: Reader): NamedReader => {
  if (typeof reader === 'string') return reader;
  if (reader.includes('authority')) return 'authority';
  return reader.some(isPurpose) ? 'legitimate_interest' : 'public';
};

export const isReader = (value: unknown): value is NamedReader => typeof value === 'string' && Object.hasOwn(AUDIENCES_OF_READER, value);
export const isPurposeName = (value: unknown): value is Purpose => typeof value === 'string' && (PURPOSES as readonly string[]).includes(value);
