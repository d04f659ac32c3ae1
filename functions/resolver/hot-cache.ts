/**
 * The resolver's memory of what it read for a scan (docs/resolver.md#a-hot-product): a GTIN's
 * public view, or the view of a lot or serial, kept for at most `ttlMs` (RESOLVER_VIEW_CACHE_MS,
 * at most 1 s, lib/config.ts) from when its read began, so that a new version, a withdrawal or any
 * other change is answered within that second. Scans that arrive while the read is under way wait
 * for the same read. A warm instance therefore reads a hot GTIN at most once a second, however many
 * scans it answers: one viral product cannot drive its partition past DynamoDB's per-partition read
 * limit. A failed read is not remembered. Scans are still counted one by one: only the read is shared.
 */
export class HotCache<T> {
  readonly #entries = new Map<string, { until: number; value: Promise<T> }>();

  /**
   * @param ttlMs how long an entry answers, from when its read began; 0 turns the cache off.
   * @param maxEntries at most this many keys are remembered: a flood of made-up links cannot grow memory without bound.
   */
  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
  ) {}

  /** The value remembered for `key` while it is fresh, else `read()`'s, remembered from now on. */
  get(key: string, read: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return read();
    const now = Date.now();
    const found = this.#entries.get(key);
    if (found && found.until > now) return found.value;
    if (this.#entries.size >= this.maxEntries) this.#evict(now);
    const value = read();
    const entry = { until: now + this.ttlMs, value };
    this.#entries.set(key, entry);
    value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return value;
  }

  /** Drops the stale entries; if every entry is fresh (a flood of distinct keys within a second), all of them. */
  #evict(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
