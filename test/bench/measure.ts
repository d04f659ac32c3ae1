/** Runs `task` `count` times with `concurrency` in flight and returns operations per second. */
export async function throughput(task: (i: number) => Promise<unknown>, count: number, concurrency: number): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return count / seconds;
}

export interface Row {
  benchmark: string;
  figure: string;
  value: number;
  unit: string;
  note?: string;
}

export function printTable(rows: Row[]): void {
  const cells = rows.map((r) => [r.benchmark, r.figure, r.value.toFixed(r.value < 10 ? 2 : 0), r.unit, r.note ?? '']);
  const header = ['benchmark', 'figure', 'value', 'unit', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}
