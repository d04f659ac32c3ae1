/**
 * The battery categories that need a battery passport (Regulation (EU) 2023/1542 Art. 77(1): LMT
 * batteries, industrial batteries above 2 kWh, electric vehicle batteries), spelt as the Battery
 * Pass data model's BatteryCategoryEnum spells them. `industrial` is an industrial battery above
 * 2 kWh other than a stationary battery energy storage system, `stationary` is one (the split of
 * the consortium's attribute longlist: docs/battery.md#which-batteries). No imports: the dashboard
 * may read it.
 */
export const BATTERY_CATEGORIES = ['lmt', 'ev', 'industrial', 'stationary'] as const;
export type BatteryCategory = (typeof BATTERY_CATEGORIES)[number];

/** Lifecycle status of one battery, as the data model's BatteryStatusEnumeration spells it (Annex XIII point 4(c)). */
export const BATTERY_STATUSES = ['Original', 'Repurposed', 'Reused', 'Remanufactured', 'Waste'] as const;
export type BatteryStatus = (typeof BATTERY_STATUSES)[number];

/** The day the battery passport becomes mandatory for every category (Art. 77(1)). */
export const PASSPORT_MANDATORY_FROM = '2027-02-18';
