/** Output for people (tables, a progress bar) and for scripts (--json): docs/cli.md#output. */

const width = (text: string) => [...text].length;

/**
 * What a terminal acts on or reorders instead of showing it: the C0 controls (ESC starts an escape
 * sequence that can clear the screen, retitle the window or fake a prompt; BEL rings), DEL, the C1
 * controls (U+009B is a one-character CSI), and the bidirectional embeddings, overrides and
 * isolates (U+202E shows "gnilseiR" as "Riesling"). The server refuses them in text it takes
 * (docs/api.md#text-and-json-rules), but data written before that rule, or a hostile server, may
 * still hold them.
 */
const ACTIVE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/gu;
/** As ACTIVE, but for output of several lines: TAB and LF are kept. */
const ACTIVE_IN_LINES = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/gu;

const braced = (char: string) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`;

/** Text for a terminal: each character ACTIVE names shown as its escape (ESC as \u{1b}), lines and tabs kept. */
export const printable = (text: string): string => text.replace(ACTIVE_IN_LINES, braced);

/**
 * JSON text with DEL, the C1 controls and the bidi characters of ACTIVE written as JSON escapes
 * (\u009b): JSON.stringify escapes the C0 controls but not these, and the text must still read back
 * to the same value.
 */
const jsonSafe = (text: string): string => text.replace(/[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/gu, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return jsonSafe(JSON.stringify(value));
  return String(value).replace(/\s+/g, ' ').replace(ACTIVE, braced);
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

/** A value as JSON for scripts (--json), pretty unless `compact`, safe to print on a terminal. */
export const json = (value: unknown, { compact = false }: { compact?: boolean } = {}): string =>
  jsonSafe(compact ? JSON.stringify(value) : JSON.stringify(value, null, 2));

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
      const line = `[${'#'.repeat(filled)}${'-'.repeat(30 - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${done}/${total} rows  ${String(label).replace(ACTIVE, braced)}`;
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
