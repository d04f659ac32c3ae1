import { readFileSync } from 'node:fs';
import { deriveCriticalRawMaterials } from '../../lib/domain/battery/material-composition.ts';

/**
 * The full example battery passport (docs/examples/battery-passport.json) split as the service keeps
 * it (docs/battery.md#model-and-item): the model's data on the passport version, each battery's own
 * identifiers, dates, status and condition on its item.
 */
type Json = Record<string, any>;

export const BATTERY_EXAMPLE = JSON.parse(readFileSync(new URL('../../docs/examples/battery-passport.json', import.meta.url), 'utf8')) as Json;

/** The members of generalProductInformation each battery holds itself. */
export const ITEM_MEMBERS = ['productIdentifier', 'batteryPassportIdentifier', 'manufacturingDate', 'batteryStatus', 'puttingIntoService'] as const;

/**
 * The example's model-level data for an EV or an LMT battery (an LMT pack weighs and stores less,
 * and has no EV-only element), with another mass when `massKg` is given (a new version's change).
 */
export function batteryModelData(batteryCategory: 'ev' | 'lmt' = 'ev', { massKg }: { massKg?: number } = {}): Json {
  const data = structuredClone(BATTERY_EXAMPLE);
  for (const member of ITEM_MEMBERS) delete data.generalProductInformation[member];
  delete data.performanceAndDurability.batteryCondition;
  // One battery's measured values (Annex XIII 4(a)) are the item's, not the model's.
  delete data.performanceAndDurability.measuredPerformance;
  data.generalProductInformation.batteryCategory = batteryCategory;
  if (batteryCategory === 'lmt') {
    data.generalProductInformation.batteryMass = 3.1;
    data.performanceAndDurability.batteryTechicalProperties.ratedEnergy = 0.5;
    // An EV battery's element only (Annex XIII 1(k)).
    delete data.performanceAndDurability.batteryTechicalProperties.capacityThresholdForExhaustion;
  }
  if (massKg !== undefined) data.generalProductInformation.batteryMass = massKg;
  // The critical raw materials are derived from the flagged materials and the mass, as the service derives them on every write.
  data.materialComposition.criticalRawMaterials = deriveCriticalRawMaterials(data.materialComposition.batteryMaterials, data.generalProductInformation.batteryMass);
  return data;
}

/** The example's own battery data: its identifiers, dates and status, and its whole condition. */
export function batteryItemData(identity?: { digitalLink: string; serial: string }): Json {
  const general: Json = {};
  for (const member of ITEM_MEMBERS) if (BATTERY_EXAMPLE.generalProductInformation[member] !== undefined) general[member] = BATTERY_EXAMPLE.generalProductInformation[member];
  // A battery's identifiers name it (docs/battery.md#the-individual-battery): its own Digital Link, and a passport identifier of its own.
  if (identity) Object.assign(general, { productIdentifier: identity.digitalLink, batteryPassportIdentifier: `urn:cellmaker:${identity.serial.toLowerCase()}` });
  return { generalProductInformation: general, performanceAndDurability: { batteryCondition: structuredClone(BATTERY_EXAMPLE.performanceAndDurability.batteryCondition) } };
}

/** One battery's own data at its n-th reading (1 to 9): its identifiers (naming its GTIN, 13 or 14 digits, and serial), dates, status, and its condition after n × 100 cycles. */
export function batteryReading(gtin13: string, serial: string, reading: number): Json {
  const at = `2028-0${reading}-28T22:00:00Z`;
  return {
    generalProductInformation: {
      productIdentifier: `https://id.cell-maker.example/01/${gtin13.padStart(14, '0')}/21/${serial}`,
      batteryPassportIdentifier: `urn:cellmaker:${serial.toLowerCase()}`,
      manufacturingDate: '2027-03-04T08:15:00Z',
      puttingIntoService: '2027-05-20T10:00:00+02:00',
      batteryStatus: 'Original',
    },
    performanceAndDurability: {
      batteryCondition: {
        numberOfFullCycles: { numberOfFullCyclesValue: reading * 100, lastUpdate: at },
        stateOfCertifiedEnergy: { stateOfCertifiedEnergyValue: 100 - reading * 1.25, lastUpdate: at },
        remainingCapacity: { remainingCapacityValue: 190 - reading * 2.5, lastUpdate: at },
        temperatureInformation: { timeExtremeHighTemp: reading * 1.5, timeExtremeLowTemp: 0, timeExtremeHighTempCharging: 0, timeExtremeLowTempCharging: 0, lastUpdate: at },
      },
    },
  };
}
