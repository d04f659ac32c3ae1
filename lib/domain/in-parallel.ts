/**
 * Runs `task` on each of `values`, at most `inFlight` at once, and answers the results in the
 * values' order: the bounded concurrency of batch reads, backup checks and registry writes. No
 * imports.
 */
export async function inParallel<T, R>(values: readonly T[], inFlight: number, task: (value: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(values.length);
  let next = 0;
  const worker = async () => {
    while (next < values.length) {
      const index = next++;
      out[index] = await task(values[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, values.length) }, worker));
  return out;
}
