/**
 * The resolver's memory of what it read for a scan (docs/resolver.md#a-hot-product): a GTIN's
 * public view, or the view of a lot or serial, kept for at most `ttlMs` (RESOLVER_VIEW_CACHE_MS,
 * at most 1 s, lib/config.ts) from when its read began, so that a new version, a withdrawal or any
 * other change is answered within that second. Scans that arrive while the read is under way wait
 * for the same read. A warm instance therefore reads a hot GTIN at most once a second, however many
 * scans it answers: one viral product cannot drive its partition past DynamoDB's per-partition read
 * limit. A failed read is not remembered. Scans are still counted one by one: only the read is shared.
 * The resolver's memory of brand hosts' claims is one too, for a minute (functions/resolver/handler.ts).
 *
 * Bounded, least recently used first out, in two parts, so that a flood of made-up links cannot
 * push the hot entries out:
 * - **found**: reads that found what the key names, at most `maxEntries` and about `maxBytes`;
 * - **not found**: reads that found nothing the key names (the caller's `isMiss`), and first reads
 *   still under way, at most `maxMisses` and about `maxMissBytes`. Made-up keys only ever displace
 *   each other here; a read that turns out found moves to the first part.
 * A hit costs one Map delete and set (the entry moves to the most recent end), nothing allocated.
 */
export interface HotCacheBounds {
  /** At most this many found entries; default 10,000. */
  maxEntries?: number;
  /** At most about this many bytes of found values (their JSON's length, measured once when the read ends); default 64 MiB. */
  maxBytes?: number;
  /** At most this many misses and first reads under way; default 1,000. */
  maxMisses?: number;
  /** At most about this many bytes of missed values; default 16 MiB. */
  maxMissBytes?: number;
}

interface Entry<T> {
  until: number;
  value: Promise<T>;
  bytes: number;
  part: Part<T>;
}

/** One part of the cache: a Map in order of last use, the oldest dropped beyond its bounds. */
class Part<T> {
  readonly entries = new Map<string, Entry<T>>();
  bytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  add(key: string, entry: Entry<T>): void {
    // A value beyond the whole bound is not kept (rather than making room for it by dropping everything else).
    if (entry.bytes > this.maxBytes) return;
    entry.part = this;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    while (this.entries.size > this.maxEntries || (this.bytes > this.maxBytes && this.entries.size > 0)) {
      const oldest = this.entries.keys().next().value as string;
      this.remove(oldest, this.entries.get(oldest)!);
    }
  }

  remove(key: string, entry: Entry<T>): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** A value's size for the byte bounds: the length of its JSON (0 when it has none). */
const jsonLength = (value: unknown): number => {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
};

/** Every value is found (the default `isMiss`). */
const neverMissed = (): boolean => false;

export class HotCache<T> {
  readonly #found: Part<T>;
  readonly #missed: Part<T>;

  /**
   * @param ttlMs how long an entry answers, from when its read began; 0 turns the cache off.
   * @param bounds how many entries and bytes each part keeps (HotCacheBounds).
   * @param sizeOf a value's size in bytes, about; measured once when its read ends.
   */
  constructor(
    readonly ttlMs: number,
    bounds: HotCacheBounds = {},
    readonly sizeOf: (value: T) => number = jsonLength,
  ) {
    this.#found = new Part<T>(bounds.maxEntries ?? 10_000, bounds.maxBytes ?? 64 * 1024 * 1024);
    this.#missed = new Part<T>(bounds.maxMisses ?? 1_000, bounds.maxMissBytes ?? 16 * 1024 * 1024);
  }

  /**
   * The value remembered for `key` while it is fresh, else `read()`'s, remembered from now on:
   * among the found entries unless `isMiss` says it found nothing the key names.
   */
  get(key: string, read: () => Promise<T>, isMiss: (value: T) => boolean = neverMissed): Promise<T> {
    if (this.ttlMs <= 0) return read();
    const now = Date.now();
    const found = this.#found.entries.get(key) ?? this.#missed.entries.get(key);
    if (found) {
      found.part.entries.delete(key);
      if (found.until > now) {
        found.part.entries.set(key, found);
        return found.value;
      }
      found.part.bytes -= found.bytes;
    }
    // A key found before waits among the found for its new read; a new key among the misses until its read is found.
    const entry: Entry<T> = { until: now + this.ttlMs, value: read(), bytes: 0, part: found?.part ?? this.#missed };
    entry.part.add(key, entry);
    entry.value.then(
      (value) => {
        if (entry.part.entries.get(key) !== entry) return;
        entry.part.remove(key, entry);
        entry.bytes = this.sizeOf(value);
        (isMiss(value) ? this.#missed : this.#found).add(key, entry);
      },
      () => entry.part.remove(key, entry),
    );
    return entry.value;
  }

  /** How many keys are remembered, found or not. */
  get size(): number {
    return this.#found.entries.size + this.#missed.entries.size;
  }
}
