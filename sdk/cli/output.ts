/** Output for people (tables, a progress bar) and for scripts (--json): docs/cli.md#output. */

const width = (text: string) => [...text].length;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/\s+/g, ' ');
}

/** A table of `rows` under `columns` (key, or [key, heading]). */
export function table<T extends object>(rows: readonly T[], columns: ReadonlyArray<(keyof T & string) | readonly [keyof T & string, string]>): string {
  const cols = columns.map((c) => (typeof c === 'string' ? ([c, c] as const) : c));
  const cells = rows.map((row) => cols.map(([key]) => cell(row[key])));
  const widths = cols.map(([, heading], i) => Math.max(width(heading), ...cells.map((r) => width(r[i] ?? ''))));
  const line = (values: string[]) => values.map((v, i) => (i === values.length - 1 ? v : v + ' '.repeat((widths[i] ?? 0) - width(v)))).join('  ').trimEnd();
  return [line(cols.map(([, heading]) => heading.toUpperCase())), ...cells.map(line)].join('\n');
}

/** An object as `key  value` lines. */
export function details(record: object): string {
  const entries = Object.entries(record);
  const pad = Math.max(...entries.map(([key]) => width(key)));
  return entries.map(([key, value]) => `${key}${' '.repeat(pad - width(key))}  ${cell(value)}`).join('\n');
}

export const json = (value: unknown): string => JSON.stringify(value, null, 2);

/**
 * A progress bar on a stream: redrawn in place on a terminal; elsewhere (a log, a pipe) a line each
 * time it moves on by a tenth or its label changes.
 */
export function progressBar(stream: NodeJS.WriteStream) {
  let lastLine = '';
  let lastTenth = -1;
  return {
    update(done: number, total: number, label: string) {
      const fraction = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(fraction * 30);
      const line = `[${'#'.repeat(filled)}${'-'.repeat(30 - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${done}/${total} rows  ${label}`;
      if (stream.isTTY) {
        stream.write(`\r${line}\u001b[K`);
      } else {
        const tenth = Math.floor(fraction * 10);
        if (tenth !== lastTenth || line.slice(line.indexOf('rows')) !== lastLine.slice(lastLine.indexOf('rows'))) stream.write(`${line}\n`);
        lastTenth = tenth;
      }
      lastLine = line;
    },
    done() {
      if (stream.isTTY && lastLine) stream.write('\n');
    },
  };
}
