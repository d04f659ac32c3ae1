/**
 * A small in-memory TTL cache for authenticated keys, so a warm Lambda serves a request with one
 * DynamoDB call instead of two. Entries live at most `ttlMs` (configuration caps it at 5 s), which
 * bounds how long a revoked key keeps working.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Stores `value` until `readAt + ttlMs`. Pass the time the value was read from its source, taken
   * before the read: a slow read then shortens the entry instead of lengthening how long a revoked
   * key keeps working.
   */
  set(key: string, value: V, readAt: number = this.now()): void {
    if (this.ttlMs <= 0) return;
    const expiresAt = readAt + this.ttlMs;
    if (expiresAt <= this.now()) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt });
  }
}
