import { useId } from 'preact/hooks';
import type { Granularity } from './constants.ts';
import { formatDate } from './format.ts';

export interface Bucket {
  date: string;
  scans: number;
}

/** A round axis maximum at or above `max` (1, 2, 5 × 10^n), so grid lines fall on whole numbers. */
export function niceMax(max: number): number {
  if (max <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 12, right: 12, bottom: 28, left: 40 };

/** Label of a bucket: the day, the ISO week's Monday, or the month. */
function bucketLabel(date: string, granularity: Granularity, short = false): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (granularity === 'month') return day.toLocaleDateString(undefined, { month: short ? 'short' : 'long', year: short ? '2-digit' : 'numeric', timeZone: 'UTC' });
  if (short) return day.toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return granularity === 'week' ? `Week of ${formatDate(date)}` : formatDate(date);
}

/**
 * Scans over time as an inline SVG bar chart (no chart library): accessible name and summary, a
 * tooltip per bar, and the same numbers in a table for screen readers and keyboard users.
 */
export function ScanChart(props: { buckets: Bucket[]; granularity: Granularity; total: number }) {
  const id = useId();
  const { buckets, granularity } = props;
  const max = niceMax(Math.max(0, ...buckets.map((b) => b.scans)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, buckets.length);
  const barW = Math.max(2, Math.min(36, slot * 0.7));
  const ticks = [0, max / 4, max / 2, (3 * max) / 4, max];
  const labelEvery = Math.max(1, Math.ceil(buckets.length / 8));
  const y = (value: number) => PAD.top + innerH - (value / max) * innerH;
  const first = buckets[0]?.date;
  const last = buckets.at(-1)?.date;
  const peak = buckets.reduce<Bucket | undefined>((best, b) => (b.scans > (best?.scans ?? 0) ? b : best), undefined);
  const summary = `${props.total} scans from ${first ? bucketLabel(first, granularity) : ''} to ${last ? bucketLabel(last, granularity) : ''}${
    peak ? `; the most, ${peak.scans}, in ${bucketLabel(peak.date, granularity)}` : ''
  }.`;

  return (
    <figure class="chart" data-total={props.total} data-testid="scan-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>Scans per {granularity}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        {ticks.map((tick) => (
          <g key={tick} class="chart-grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 8} y={y(tick) + 4} text-anchor="end">
              {Number.isInteger(tick) ? tick : ''}
            </text>
          </g>
        ))}
        {buckets.map((bucket, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          const h = (bucket.scans / max) * innerH;
          return (
            <g key={bucket.date}>
              <rect class={`chart-bar${bucket.scans ? '' : ' is-empty'}`} x={x} y={y(bucket.scans)} width={barW} height={Math.max(h, bucket.scans ? 1 : 0)} data-scans={bucket.scans}>
                <title>{`${bucketLabel(bucket.date, granularity)}: ${bucket.scans} ${bucket.scans === 1 ? 'scan' : 'scans'}`}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text class="chart-label" x={PAD.left + i * slot + slot / 2} y={HEIGHT - 8} text-anchor="middle">
                  {bucketLabel(bucket.date, granularity, true)}
                </text>
              ) : null}
            </g>
          );
        })}
        <line class="chart-axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} />
      </svg>
      <figcaption class="visually-hidden">{summary}</figcaption>
      <details class="chart-table">
        <summary>Show the numbers</summary>
        <div class="table-wrap">
          <table class="table table-compact">
            <thead>
              <tr>
                <th scope="col">{granularity === 'day' ? 'Day' : granularity === 'week' ? 'Week' : 'Month'}</th>
                <th scope="col" class="num">
                  Scans
                </th>
              </tr>
            </thead>
            <tbody>
              {buckets.map((bucket) => (
                <tr key={bucket.date}>
                  <th scope="row">{bucketLabel(bucket.date, granularity)}</th>
                  <td class="num">{bucket.scans}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** A labelled horizontal bar per entry, for countries, devices and referrers. */
export function BarList(props: { label: string; entries: { key: string; label: string; value: number }[]; empty: string }) {
  const max = Math.max(1, ...props.entries.map((e) => e.value));
  const total = props.entries.reduce((sum, e) => sum + e.value, 0);
  if (!props.entries.length || total === 0) return <p class="muted">{props.empty}</p>;
  return (
    <ul class="barlist" aria-label={props.label}>
      {props.entries.map((entry) => (
        <li key={entry.key}>
          <div class="barlist-row">
            <span>{entry.label}</span>
            <span class="num">
              {entry.value} <span class="muted">({Math.round((entry.value / total) * 100)}%)</span>
            </span>
          </div>
          <div class="barlist-track" aria-hidden="true">
            <div class={`barlist-fill w-${Math.round((entry.value / max) * 20) * 5}`} />
          </div>
        </li>
      ))}
    </ul>
  );
}
