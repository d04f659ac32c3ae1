import type { AnnexXiiiPoint } from './element-map.ts';

/**
 * The Commission's guidance "Digital Batteries Passport – data points by category" as data
 * (docs/battery.md#annex-xiii-point-by-point): each data point's number, the provision it names as
 * its source, and its status for electric vehicle, LMT and industrial batteries in February 2027.
 * Read as transcribed by OpenEPCIS from version 1.0 of 28 July 2026 (lib/domain/battery/sources.ts
 * `ec-guidance`), not in the Commission's own publication; version 2.0 (15 August 2026), which the
 * issue names, could not be read: where they differ is unconfirmed. The guidance has no column for
 * stationary storage systems, which are industrial batteries: their status is the industrial one.
 * The names are our short English words for each data point. No imports but types.
 */

/** The guidance's statuses: `notToBeFilled` for a point it resolves into another (an aggregate, a duplicate). */
export type GuidanceStatus = 'mandatory' | 'conditional' | 'optional' | 'pending' | 'notToBeFilled';
export type GuidanceColumn = 'ev' | 'lmt' | 'industrial';

export interface GuidanceDataPoint {
  readonly nr: number;
  readonly name: string;
  /** The provision the guidance names as the data point's source: an Annex XIII point, or Annex VI Part A / Art. 77(3) through point 1(a). */
  readonly source: string;
  /** The Annex XIII point it falls under (Annex VI Part A through 1(a), the aggregate 16 under 1(b)); null for the two of Art. 77(3). */
  readonly annexXIII: AnnexXiiiPoint | null;
  readonly status: Readonly<Record<GuidanceColumn, GuidanceStatus>>;
}

const M = 'mandatory';
const C = 'conditional';
const O = 'optional';
const P = 'pending';
const N = 'notToBeFilled';

const all = (status: GuidanceStatus) => ({ ev: status, lmt: status, industrial: status });
const by = (ev: GuidanceStatus, lmt: GuidanceStatus, industrial: GuidanceStatus) => ({ ev, lmt, industrial });
const p = (point: 1 | 2 | 3 | 4, letter?: string): AnnexXiiiPoint => (letter === undefined ? { point } : { point, letter });

const point = (nr: number, name: string, source: string, annexXIII: AnnexXiiiPoint | null, status: Readonly<Record<GuidanceColumn, GuidanceStatus>>): GuidanceDataPoint => ({
  nr,
  name,
  source,
  annexXIII,
  status,
});

export const GUIDANCE_DATA_POINTS: readonly GuidanceDataPoint[] = [
  point(1, 'Unique identifier', 'Art. 77(3)', null, all(M)),
  point(2, 'Who registers or is responsible for the passport', 'Art. 77(3)', null, all(M)),
  point(3, 'Manufacturer name or trade name or mark', 'Annex VI Part A(1)', p(1, 'a'), all(M)),
  point(4, 'Manufacturer postal address', 'Annex VI Part A(1)', p(1, 'a'), all(M)),
  point(5, 'Manufacturer web and e-mail address, if available', 'Annex VI Part A(1)', p(1, 'a'), all(O)),
  point(6, 'Battery category', 'Annex VI Part A(2)', p(1, 'a'), all(M)),
  point(7, 'Model identification and batch or serial number', 'Annex VI Part A(2)', p(1, 'a'), all(M)),
  point(8, 'Place of manufacture (plant)', 'Annex VI Part A(3)', p(1, 'a'), all(M)),
  point(9, 'Date of manufacture (month and year)', 'Annex VI Part A(4)', p(1, 'a'), all(M)),
  point(10, 'Weight', 'Annex VI Part A(5)', p(1, 'a'), all(M)),
  point(11, 'Capacity', 'Annex VI Part A(6)', p(1, 'a'), all(M)),
  point(12, 'Chemistry', 'Annex VI Part A(7)', p(1, 'a'), all(M)),
  point(13, 'Hazardous substances other than mercury, cadmium or lead', 'Annex VI Part A(8)', p(1, 'a'), all(M)),
  point(14, 'Usable extinguishing agent', 'Annex VI Part A(9)', p(1, 'a'), all(M)),
  point(15, 'Critical raw materials above 0.1 % w/w', 'Annex VI Part A(10)', p(1, 'a'), all(M)),
  point(16, 'Material composition (aggregate of 12, 13 and 15)', '–', p(1, 'b'), all(N)),
  point(17, 'Carbon footprint declaration', 'Annex XIII 1(c)', p(1, 'c'), all(P)),
  point(18, 'Carbon footprint label (performance class)', 'Annex XIII 1(c)', p(1, 'c'), all(P)),
  point(19, 'Responsible sourcing (due diligence report, Art. 52(3))', 'Annex XIII 1(d)', p(1, 'd'), all(P)),
  point(20, 'Recycled cobalt share', 'Annex XIII 1(e)', p(1, 'e'), all(M)),
  point(21, 'Recycled lithium share', 'Annex XIII 1(e)', p(1, 'e'), all(M)),
  point(22, 'Recycled nickel share', 'Annex XIII 1(e)', p(1, 'e'), all(M)),
  point(23, 'Recycled lead share', 'Annex XIII 1(e)', p(1, 'e'), all(M)),
  point(24, 'Share of renewable content', 'Annex XIII 1(f)', p(1, 'f'), all(M)),
  point(25, 'Rated capacity (duplicate of 11)', 'Annex XIII 1(g)', p(1, 'g'), all(N)),
  point(26, 'Minimum voltage, with temperature range', 'Annex XIII 1(h)', p(1, 'h'), all(M)),
  point(27, 'Nominal voltage, with temperature range', 'Annex XIII 1(h)', p(1, 'h'), all(M)),
  point(28, 'Maximum voltage, with temperature range', 'Annex XIII 1(h)', p(1, 'h'), all(M)),
  point(29, 'Original power capability', 'Annex XIII 1(i)', p(1, 'i'), all(M)),
  point(30, 'Power limits, with temperature range', 'Annex XIII 1(i)', p(1, 'i'), all(M)),
  point(31, 'Expected lifetime in cycles', 'Annex XIII 1(j)', p(1, 'j'), by(M, M, C)),
  point(32, 'Reference test for the lifetime in cycles', 'Annex XIII 1(j)', p(1, 'j'), by(M, M, C)),
  point(33, 'Capacity threshold for exhaustion', 'Annex XIII 1(k)', p(1, 'k'), by(M, N, N)),
  point(34, 'Temperature range when not in use', 'Annex XIII 1(l)', p(1, 'l'), all(M)),
  point(35, 'Commercial warranty period for the calendar life', 'Annex XIII 1(m)', p(1, 'm'), all(C)),
  point(36, 'Initial round trip energy efficiency', 'Annex XIII 1(n)', p(1, 'n'), by(M, M, C)),
  point(37, 'Round trip energy efficiency at 50 % of cycle life', 'Annex XIII 1(n)', p(1, 'n'), by(M, M, C)),
  point(38, 'Internal cell and pack resistance', 'Annex XIII 1(o)', p(1, 'o'), all(M)),
  point(39, 'C-rate of the cycle-life test', 'Annex XIII 1(p)', p(1, 'p'), by(M, M, C)),
  point(40, 'Marking of Art. 13(4)', 'Annex XIII 1(q)', p(1, 'q'), all(M)),
  point(41, 'Marking of Art. 13(5) (cadmium or lead symbol)', 'Annex XIII 1(q)', p(1, 'q'), all(C)),
  point(42, 'EU declaration of conformity', 'Annex XIII 1(r)', p(1, 'r'), all(M)),
  point(43, 'Waste prevention and management information, Art. 74(1)(a) to (f)', 'Annex XIII 1(s)', p(1, 's'), all(M)),
  point(44, 'Instructions for use', 'Annex XIII 1(t)', p(1, 't'), all(P)),
  point(45, 'Detailed composition (cathode, anode, electrolyte)', 'Annex XIII 2(a)', p(2, 'a'), all(M)),
  point(46, 'Part numbers for components', 'Annex XIII 2(b)', p(2, 'b'), all(M)),
  point(47, 'Sources of replacement spares', 'Annex XIII 2(b)', p(2, 'b'), all(M)),
  point(48, 'Dismantling information', 'Annex XIII 2(c)', p(2, 'c'), all(M)),
  point(49, 'Safety measures', 'Annex XIII 2(d)', p(2, 'd'), all(M)),
  point(50, 'Results of test reports', 'Annex XIII 3', p(3), all(M)),
  point(51, 'Rated capacity (this battery)', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(52, 'Capacity fade', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(53, 'Power', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(54, 'Power fade', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(55, 'Internal resistance', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(56, 'Internal resistance increase', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(57, 'Energy round trip efficiency, where applicable', 'Annex XIII 4(a)', p(4, 'a'), all(C)),
  point(58, 'Energy round trip efficiency fade, where applicable', 'Annex XIII 4(a)', p(4, 'a'), all(C)),
  point(59, 'Expected lifetime in cycles (this battery)', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(60, 'Expected lifetime in calendar years (this battery)', 'Annex XIII 4(a)', p(4, 'a'), by(M, M, C)),
  point(61, 'State of health: state of certified energy', 'Annex XIII 4(b)', p(4, 'b'), by(M, N, N)),
  point(62, 'State of health: remaining capacity', 'Annex XIII 4(b)', p(4, 'b'), by(N, M, C)),
  point(63, 'State of health: remaining power capability', 'Annex XIII 4(b)', p(4, 'b'), by(N, M, C)),
  point(64, 'State of health: remaining round trip efficiency', 'Annex XIII 4(b)', p(4, 'b'), by(N, M, C)),
  point(65, 'State of health: evolution of self-discharging rates', 'Annex XIII 4(b)', p(4, 'b'), by(N, M, C)),
  point(66, 'State of health: ohmic resistance', 'Annex XIII 4(b)', p(4, 'b'), by(N, M, C)),
  point(67, 'Status of the battery', 'Annex XIII 4(c)', p(4, 'c'), all(M)),
  point(68, 'Number of charging and discharging cycles', 'Annex XIII 4(d)', p(4, 'd'), all(C)),
  point(69, 'Negative events, such as accidents', 'Annex XIII 4(d)', p(4, 'd'), all(C)),
  point(70, 'Operating environmental conditions, including temperature', 'Annex XIII 4(d)', p(4, 'd'), all(C)),
  point(71, 'State of charge', 'Annex XIII 4(d)', p(4, 'd'), all(C)),
];

/** A data point by its number. */
export const guidanceDataPoint = (nr: number): GuidanceDataPoint | undefined => GUIDANCE_DATA_POINTS.find((entry) => entry.nr === nr);
