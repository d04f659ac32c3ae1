/**
 * Polls `check` until it answers a value, for at most `timeoutMs`: the wait for a condition that
 * test files and scripts share (docs/testing.md: never a short fixed wait). A check that throws
 * counts as "not yet" (a dependency that is down answers with an error until it is back). No
 * vitest import, so the bench scripts use it too.
 */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
