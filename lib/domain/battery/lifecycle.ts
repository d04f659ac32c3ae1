import type { Lineage, LineageLink } from '../unit.ts';

/**
 * A battery's life as a state machine (docs/battery.md#a-batterys-life): each change of its state
 * is an operation with its actor, never an edit of `batteryStatus` by PUT or PATCH.
 *
 *   Original ──handover accepted (repurposing, remanufacturing, preparation for re-use or for
 *   repurposing)──▶ Repurposed | Remanufactured | Reused ──waste handover accepted──▶ Waste
 *   Original ──waste handover accepted──▶ Waste ──recycling declared──▶ Recycled (the end)
 *
 * Regulation (EU) 2023/1542 Art. 77(7) first subparagraph: a battery prepared for re-use, prepared
 * for repurposing, repurposed or remanufactured gets a new passport, linked to the passport of the
 * original battery or batteries; second subparagraph: once it is waste, the responsibility passes
 * to the producer, its producer responsibility organisation or a waste management operator.
 * Art. 77(8): the passport ceases to exist once the battery is recycled. Read in secondary sources
 * only (docs/battery.md#what-is-unconfirmed).
 *
 * The states are the Battery Pass data model's BatteryStatusEnumeration (Original, Repurposed,
 * Reused, Remanufactured, Waste; Annex XIII point 4(c)) and `Recycled`, which the data model does
 * not have: a recycled battery keeps `batteryStatus: Waste` in its data, and its `lineage.recycled`
 * says it was recycled. No imports but types: the resolver reads it (its import path is free of zod).
 */
export const LIFECYCLE_STATES = ['Original', 'Repurposed', 'Remanufactured', 'Reused', 'Waste', 'Recycled'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

const SECOND_LIFE: readonly LifecycleState[] = ['Repurposed', 'Remanufactured', 'Reused'];

/**
 * The states each state may move to. A second-life state may move to another one (an original
 * split between several second-life batteries by several handovers, a pack that takes a further
 * original): each such move is still a handover both organizations agreed to.
 */
const NEXT: Readonly<Record<LifecycleState, readonly LifecycleState[]>> = {
  Original: [...SECOND_LIFE, 'Waste'],
  Repurposed: [...SECOND_LIFE, 'Waste'],
  Remanufactured: [...SECOND_LIFE, 'Waste'],
  Reused: [...SECOND_LIFE, 'Waste'],
  Waste: ['Recycled'],
  Recycled: [],
};

/** Which operation makes each state, for the messages that refuse an edit. */
const OPERATION_OF: Readonly<Record<LifecycleState, string>> = {
  Original: 'registering the battery (PUT …/items/{serial})',
  Repurposed: 'accepting a handover for repurposing or preparation for repurposing (POST /v1/handovers, then …/accept)',
  Remanufactured: 'accepting a handover for remanufacturing (POST /v1/handovers, then …/accept)',
  Reused: 'accepting a handover for preparation for re-use (POST /v1/handovers, then …/accept)',
  Waste: 'accepting a waste handover (POST /v1/handovers with operation waste, then …/accept)',
  Recycled: 'the responsible organization declaring it recycled (POST /v1/handovers/{handoverId}/recycle)',
};

/** The `batteryStatus` of a battery's data, if it holds one. */
export function batteryStatusOf(data: Record<string, unknown>): string | undefined {
  const general = data.generalProductInformation;
  if (typeof general !== 'object' || general === null) return undefined;
  const status = (general as Record<string, unknown>).batteryStatus;
  return typeof status === 'string' ? status : undefined;
}

/** A battery item's state: Recycled once its recycling was declared, else its batteryStatus (Original when it holds none). */
export function lifecycleStateOf(unit: { data: Record<string, unknown>; lineage?: Lineage }): LifecycleState {
  if (unit.lineage?.recycled) return 'Recycled';
  const status = batteryStatusOf(unit.data);
  return (LIFECYCLE_STATES as readonly string[]).includes(status ?? '') ? (status as LifecycleState) : 'Original';
}

/** Whether `from` may move to `to` by an operation. */
export const canMove = (from: LifecycleState, to: LifecycleState): boolean => NEXT[from].includes(to);

/** The message of a move the machine refuses, naming both states (answered with 409). */
export const invalidMove = (from: string, to: string): string =>
  `${from} → ${to} is not a transition of a battery's life: ${from === 'Recycled' ? 'a recycled battery has no further state' : `from ${from} a battery moves to ${NEXT[from as LifecycleState]?.join(', ') || 'no other state'}`} (docs/battery.md#a-batterys-life).`;

/** The data with `batteryStatus` set to `status` (Annex XIII point 4(c)). */
export function withBatteryStatus(data: Record<string, unknown>, status: string): Record<string, unknown> {
  const general = typeof data.generalProductInformation === 'object' && data.generalProductInformation !== null ? (data.generalProductInformation as Record<string, unknown>) : {};
  return { ...data, generalProductInformation: { ...general, batteryStatus: status } };
}

/**
 * The predecessors an item names: `lineage.predecessor` is a list since a second-life battery may
 * be made of several originals; versions written before hold one link object, read as a list of one
 * (and kept as they were, so that their digests still hold).
 */
export function predecessorsOf(lineage: Lineage | undefined): LineageLink[] {
  const predecessor = lineage?.predecessor;
  if (predecessor === undefined) return [];
  return Array.isArray(predecessor) ? predecessor : [predecessor];
}

/**
 * Why a PUT or PATCH of a battery item may not write `next` over `current` (undefined: a new item),
 * or undefined when it may: a recycled battery's passport has ceased; a waste battery's passport is
 * its responsible organization's; and `batteryStatus` changes only by an operation (a new item may
 * say Original), which is checked first, so that the answer names both states. Answered with 409
 * naming `param`.
 */
export function editRefusal(
  current: { data: Record<string, unknown>; lineage?: Lineage } | undefined,
  next: { data: Record<string, unknown> },
): { message: string; param: string } | undefined {
  if (current?.lineage?.recycled) {
    return { message: 'This battery was recycled: its battery passport has ceased to exist (Regulation (EU) 2023/1542 Art. 77(8)) and takes no further version.', param: 'serial' };
  }
  const from = current ? batteryStatusOf(current.data) : undefined;
  const to = batteryStatusOf(next.data);
  if (from === to || (from === undefined && to === 'Original')) {
    if (!current?.lineage?.responsible) return undefined;
    const { orgId, handoverId } = current.lineage.responsible;
    return {
      message: `This battery is waste: since handover ${handoverId} the organization ${orgId} is responsible for its passport (Regulation (EU) 2023/1542 Art. 77(7), second subparagraph), not its producer's edits.`,
      param: 'serial',
    };
  }
  const fromName = current ? lifecycleStateOf(current) : 'Original';
  const toName = to ?? 'no status';
  const how = (LIFECYCLE_STATES as readonly string[]).includes(toName) && canMove(fromName, toName as LifecycleState)
    ? `${fromName} → ${toName} is an operation, not an edit: ${OPERATION_OF[toName as LifecycleState]}.`
    : invalidMove(fromName, toName);
  return { message: `batteryStatus cannot be changed by PUT or PATCH. ${how}`, param: 'data.generalProductInformation.batteryStatus' };
}
