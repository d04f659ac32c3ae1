import { useState } from 'preact/hooks';
import { api, type Analytics, type Product } from '../api.ts';
import { BarList, ScanChart } from '../chart.tsx';
import { ErrorNotice, Loading, useLoad } from '../components.tsx';
import { GRANULARITIES, type Granularity } from '../constants.ts';
import { plural, utcDay } from '../format.ts';

/** The window each granularity shows, ending today (UTC). */
const WINDOWS: Record<Granularity, { days: number; label: string }> = {
  day: { days: 29, label: 'Last 30 days' },
  week: { days: 7 * 12 - 1, label: 'Last 12 weeks' },
  month: { days: 365, label: 'Last 12 months' },
};

const countryNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return undefined;
  }
})();
/** The analytics answer's `notCollected` dimensions, as the page names them (docs/privacy.md). */
const DIMENSION_NAMES: Record<NonNullable<Analytics['notCollected']>[number], string> = { country: 'country', device: 'device', referrer: 'referring site' };

const countryName = (code: string): string => (code === 'unknown' ? 'Unknown' : (countryNames?.of(code) ?? code));

export function AnalyticsTab(props: { product: Product }) {
  const [granularity, setGranularity] = useState<Granularity>('day');
  const window = WINDOWS[granularity];
  const analytics = useLoad(
    () =>
      api<Analytics>('GET', `/v1/analytics/product/${encodeURIComponent(props.product.productId)}`, {
        query: { granularity, start: utcDay(window.days), end: utcDay(0) },
      }),
    [props.product.productId, granularity],
  );
  const data = analytics.data;

  return (
    <>
      <div class="toolbar toolbar-spread">
        <fieldset class="segmented">
          <legend class="visually-hidden">Group scans by</legend>
          {GRANULARITIES.map((g) => (
            <label key={g} class={granularity === g ? 'is-current' : ''}>
              <input type="radio" name="granularity" value={g} checked={granularity === g} onChange={() => setGranularity(g)} />
              <span>{g === 'day' ? 'Day' : g === 'week' ? 'Week' : 'Month'}</span>
            </label>
          ))}
        </fieldset>
        <button type="button" class="button button-secondary button-small" onClick={analytics.reload} disabled={analytics.loading}>
          Refresh
        </button>
      </div>
      {analytics.error ? <ErrorNotice error={analytics.error} /> : null}
      {!data && analytics.loading ? <Loading /> : null}
      {data ? (
        <>
          <div class="stats" aria-live="polite">
            <div class="stat card">
              <span class="stat-label">Scans</span>
              <span class="stat-value" data-testid="total-scans">
                {data.totalScans.toLocaleString()}
              </span>
              <span class="muted">{window.label}</span>
            </div>
            {data.notCollected ? null : (
              <>
                <div class="stat card">
                  <span class="stat-label">Countries</span>
                  <span class="stat-value">{data.uniqueCountries}</span>
                  <span class="muted">with at least one scan</span>
                </div>
                <div class="stat card">
                  <span class="stat-label">Automated requests</span>
                  <span class="stat-value">{data.bots}</span>
                  <span class="muted">bots and scripts, not counted</span>
                </div>
              </>
            )}
          </div>
          <section class="card" aria-labelledby="chart-title">
            <h2 id="chart-title">
              Scans per {granularity} <span class="muted small">({window.label.toLowerCase()}, UTC)</span>
            </h2>
            <ScanChart buckets={data.scansByDay} granularity={granularity} total={data.totalScans} />
          </section>
          {data.notCollected ? <NotCollected dimensions={data.notCollected} reason={data.notCollectedReason} /> : <Dimensions data={data} />}
          <p class="hint">
            {plural(data.totalScans, 'scan')} in this window. Scans are counted as aggregates only: no cookies, IP addresses or
            identifiers are kept.
          </p>
        </>
      ) : null}
    </>
  );
}

/** Scans by country, device and referring site. */
function Dimensions({ data }: { data: Analytics }) {
  return (
    <div class="grid-3">
      <section class="card" aria-labelledby="countries-title">
        <h2 id="countries-title">Countries</h2>
        <BarList
          label="Scans by country"
          empty="No scans yet."
          entries={Object.entries(data.locations)
            .sort(([, a], [, b]) => b - a)
            .slice(0, 8)
            .map(([code, value]) => ({ key: code, label: countryName(code), value }))}
        />
      </section>
      <section class="card" aria-labelledby="devices-title">
        <h2 id="devices-title">Devices</h2>
        <BarList
          label="Scans by device"
          empty="No scans yet."
          entries={(['mobile', 'tablet', 'desktop'] as const).map((d) => ({ key: d, label: d.charAt(0).toUpperCase() + d.slice(1), value: data.devices[d] }))}
        />
      </section>
      <section class="card" aria-labelledby="referrers-title">
        <h2 id="referrers-title">Top referrers</h2>
        <BarList
          label="Scans by referring site"
          empty="No scans yet."
          entries={data.topReferrers.map((r) => ({ key: r.domain, label: r.domain === 'direct' ? 'Direct (camera, no referrer)' : r.domain, value: r.scans }))}
        />
      </section>
    </div>
  );
}

/** A wine's scans are counts only (docs/privacy.md): which dimensions are not collected, and the law that says so. */
function NotCollected(props: { dimensions: NonNullable<Analytics['notCollected']>; reason: string | undefined }) {
  return (
    <section class="card" aria-labelledby="not-collected-title" data-testid="not-collected">
      <h2 id="not-collected-title">Not collected: {props.dimensions.map((d) => DIMENSION_NAMES[d]).join(', ')}</h2>
      <p>
        Scans of this product's e-label are counted per day and nothing else is recorded: no country, no device, no referring site.
        Automated requests cannot be told apart from people, so they are counted too.
      </p>
      {props.reason ? <p class="muted small">{props.reason}</p> : null}
    </section>
  );
}
