import { AUDIENCES_OF_POINT } from '../../lib/domain/battery/access-tiers.ts';
import { BATTERY_CATEGORIES, type BatteryCategory } from '../../lib/domain/battery/categories.ts';
import { ELEMENTS, type AnnexXiiiPoint, type BatteryElement, type Obligation } from '../../lib/domain/battery/element-map.ts';
import { GUIDANCE_DATA_POINTS, guidanceDataPoint, type GuidanceColumn, type GuidanceStatus } from '../../lib/domain/battery/guidance.ts';

/**
 * The Annex XIII table of docs/battery.md#annex-xiii-point-by-point, made from the element map and the
 * guidance's data points (test/unit/battery-annex-xiii.test.ts compares it with the doc). Run
 * `npx tsx test/support/battery-tables.ts` to print it.
 */

export const pointName = (point: AnnexXiiiPoint): string => `${point.point}${point.letter ? `(${point.letter})` : ''}`;
const samePoint = (a: AnnexXiiiPoint | null, b: AnnexXiiiPoint): boolean => a !== null && a.point === b.point && a.letter === b.letter;

/** Every Annex XIII point the guidance or the element map names, in the annex's order. */
export function annexXiiiPoints(): AnnexXiiiPoint[] {
  const all = [...GUIDANCE_DATA_POINTS.map((entry) => entry.annexXIII), ...ELEMENTS.map((element) => element.annexXIII)].filter((point): point is AnnexXiiiPoint => point !== null);
  const unique = new Map(all.map((point) => [pointName(point), point]));
  return [...unique.values()].sort((a, b) => a.point - b.point || (a.letter ?? '').localeCompare(b.letter ?? ''));
}

/** The column of the guidance a category reads: stationary storage is an industrial battery. */
export const columnOf = (category: BatteryCategory): GuidanceColumn => (category === 'stationary' ? 'industrial' : category);

export type Kind = Obligation['kind'] | 'none';

/** What the guidance's statuses of an element's data points give for a category: mandatory if one is, else conditional, else pending, else none. */
export function kindFromGuidance(element: BatteryElement, category: BatteryCategory): Kind {
  const statuses: GuidanceStatus[] = element.guidance.map((nr) => guidanceDataPoint(nr)?.status[columnOf(category)] ?? 'notToBeFilled');
  if (statuses.includes('mandatory')) return 'mandatory';
  if (statuses.includes('conditional') || statuses.includes('optional')) return 'conditional';
  if (statuses.includes('pending')) return 'pending';
  return 'none';
}

const KIND_CELL: Record<Kind, string> = { mandatory: 'M', conditional: 'C', pending: 'P', none: '–' };
const STATUS_CELL: Record<GuidanceStatus, string> = { mandatory: 'M', conditional: 'C', optional: 'O', pending: 'P', notToBeFilled: 'N' };
const LEVEL = (element: BatteryElement): string => (element.level === 'item' ? 'item' : element.perPlant ? 'model, per plant' : 'model');

/** The Markdown table: one row per Annex XIII point. */
export function annexXiiiTable(): string {
  const rows = annexXiiiPoints().map((point) => {
    const elements = ELEMENTS.filter((element) => samePoint(element.annexXIII, point));
    const dataPoints = GUIDANCE_DATA_POINTS.filter((entry) => samePoint(entry.annexXIII, point));
    const elementCell = elements.length === 0 ? 'none' : elements.map((element) => `\`${element.path}\``).join('<br>');
    const levels = [...new Set(elements.map(LEVEL))].join(', ') || '–';
    const categories = BATTERY_CATEGORIES.map((category) => {
      const kinds = elements.map((element) => element.obligations[category]?.kind ?? 'none');
      const kind: Kind = kinds.includes('mandatory') ? 'mandatory' : kinds.includes('conditional') ? 'conditional' : kinds.includes('pending') ? 'pending' : 'none';
      return KIND_CELL[kind];
    }).join(' ');
    const guidance = dataPoints.map((entry) => `${entry.nr} ${STATUS_CELL[entry.status.ev]}${STATUS_CELL[entry.status.lmt]}${STATUS_CELL[entry.status.industrial]}`).join('<br>') || '–';
    const sources = [...new Set(elements.flatMap((element) => element.sources))].join(', ') || 'ec-guidance';
    const confirmed = elements.length > 0 && elements.every((element) => element.confirmed) ? 'yes' : 'no';
    return `| ${pointName(point)} | ${elementCell} | ${AUDIENCES_OF_POINT[point.point].join(', ')} | ${levels} | ${categories} | ${guidance} | ${sources} | ${confirmed} |`;
  });
  const without = ELEMENTS.filter((element) => element.annexXIII === null);
  const withoutPoints = GUIDANCE_DATA_POINTS.filter((entry) => entry.annexXIII === null);
  rows.push(
    `| none (Art. 77(3), voluntary) | ${without.map((element) => `\`${element.path}\``).join('<br>')} | ${[...new Set(without.flatMap((element) => element.audiences))].join(', ')} | ${[...new Set(without.map(LEVEL))].join(', ')} | ${BATTERY_CATEGORIES.map((category) => {
      const kinds = without.map((element) => element.obligations[category]?.kind ?? 'none');
      return KIND_CELL[kinds.includes('mandatory') ? 'mandatory' : kinds.includes('conditional') ? 'conditional' : kinds.includes('pending') ? 'pending' : 'none'];
    }).join(' ')} | ${withoutPoints.map((entry) => `${entry.nr} ${STATUS_CELL[entry.status.ev]}${STATUS_CELL[entry.status.lmt]}${STATUS_CELL[entry.status.industrial]}`).join('<br>')} | ${[...new Set(without.flatMap((element) => element.sources))].join(', ')} | ${without.every((element) => element.confirmed) ? 'yes' : 'no'} |`,
  );
  return [
    `| Annex XIII | Element(s) | Audiences | Level | ${BATTERY_CATEGORIES.join(' ')} (ours) | Guidance data points, EV LMT industrial | Sources | Confirmed |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** One cell of the element table for an obligation. */
function cell(obligation: Obligation | undefined): string {
  if (obligation === undefined) return '–';
  switch (obligation.kind) {
    case 'mandatory':
      return obligation.from;
    case 'conditional':
      return `if applicable, ${obligation.from}`;
    case 'pending':
      return `pending, ≥ ${obligation.notBefore}`;
  }
}

/** The element map as the Markdown table of docs/battery.md#the-element-map. */
export function elementTable(): string {
  const rows = ELEMENTS.map((element: BatteryElement) => {
    const point = element.annexXIII === null ? '–' : pointName(element.annexXIII);
    const held = element.level === 'item' ? (element.dynamic ? 'item, dynamic' : 'item') : element.perPlant ? 'model, per plant' : 'model';
    const categories = BATTERY_CATEGORIES.map((category) => cell(element.obligations[category]));
    return `| \`${element.path}\` | ${element.name} | ${point} | ${element.tier} | ${held} | ${categories.join(' | ')} | ${element.confirmed ? 'yes' : 'no'} |`;
  });
  return [
    `| Element | Name | Annex XIII | Audience | Held by | ${BATTERY_CATEGORIES.join(' | ')} | Confirmed |`,
    `|---|---|---|---|---|${BATTERY_CATEGORIES.map(() => '---').join('|')}|---|`,
    ...rows,
  ].join('\n');
}

/** Writes both tables into docs/battery.md between their markers (`npx tsx test/support/battery-tables.ts --write`). */
export function withTables(doc: string): string {
  return doc
    .replace(/(<!-- element-map:start -->\n)[\s\S]*?(\n<!-- element-map:end -->)/, (_, a: string, b: string) => `${a}${elementTable()}${b}`)
    .replace(/(<!-- annex-xiii:start -->\n)[\s\S]*?(\n<!-- annex-xiii:end -->)/, (_, a: string, b: string) => `${a}${annexXiiiTable()}${b}`);
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--write') {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const path = new URL('../../docs/battery.md', import.meta.url).pathname;
  writeFileSync(path, withTables(readFileSync(path, 'utf8')));
}
