import * as z from 'zod';
import { choice, dateTime, list, measure, percent, text, url, type MeasureOptions } from './fields.ts';

/**
 * The PerformanceAndDurability aspect of the Battery Pass data model 1.2.1
 * (docs/battery.md#performance-and-durability): `batteryTechicalProperties` (misspelt as the model
 * spells it) holds the model-level values, `batteryCondition` the values of one battery that the
 * model marks dynamic with a `lastUpdate` each. Units are those of DIN DKE SPEC 99100:2025-02 where
 * it states one (docs/battery.md#units), else those of the consortium's attribute longlist.
 */

/** The data model's BatteryComponent. */
export const BATTERY_COMPONENTS = ['pack', 'module', 'cell'] as const;

const POWER: MeasureOptions = { min: 0, max: 1e9, unit: 'W' };
const VOLTAGE: MeasureOptions = { min: 0, max: 10_000, unit: 'V' };
const TEMPERATURE: MeasureOptions = { min: -100, max: 200, unit: '°C' };

export const powerCapabilityAtSchema = z
  .strictObject({ atSoC: percent('atSoC', 'State of charge, %'), powerCapabilityAt: measure('powerCapabilityAt', POWER) }, {
    error: 'A power capability is an object with atSoC and powerCapabilityAt.',
  })
  .meta({ id: 'BatteryPowerCapabilityAt', description: 'Power capability at a state of charge' });

export const internalResistanceSchema = z
  .strictObject(
    {
      ohmicResistance: measure('ohmicResistance', { min: 0, max: 1_000_000, unit: 'Ω' }),
      batteryComponent: choice('batteryComponent', BATTERY_COMPONENTS),
    },
    { error: 'An internal resistance is an object with ohmicResistance and batteryComponent.' },
  )
  .meta({ id: 'BatteryInternalResistance', description: 'Initial internal resistance of the pack, a module or a cell' });

export const temperatureRangeSchema = z
  .strictObject({ minimum: measure('minimum', TEMPERATURE), maximum: measure('maximum', TEMPERATURE) }, { error: 'A temperature range is an object with minimum and maximum.' })
  .meta({ id: 'BatteryTemperatureRange', description: 'A temperature range in °C, -100 to 200 as the data model bounds it' });

export const batteryTechnicalPropertiesCompleteSchema = z.strictObject(
  {
    originalPowerCapability: list('originalPowerCapability', powerCapabilityAtSchema, 20).describe('Original power capability at given states of charge, e.g. 80 % and 20 % (Annex IV Part B(4))'),
    ratedMaximumPower: measure('ratedMaximumPower', { ...POWER, description: 'Maximum permitted power (power limits)' }),
    powerCapabilityRatio: measure('powerCapabilityRatio', { min: 0, max: 10_000, unit: 'W/Wh', description: 'Ratio of nominal power to energy' }),
    ratedEnergy: measure('ratedEnergy', { min: 0, max: 1_000_000, unit: 'kWh', description: 'Certified usable battery energy' }),
    expectedNumberOfCycles: measure('expectedNumberOfCycles', { min: 0, max: 10_000_000, integer: true, unit: 'cycles', description: 'Expected lifetime in charge-discharge cycles' }),
    initialSelfDischarge: measure('initialSelfDischarge', { min: 0, max: 100, unit: '% per month', description: 'Initial self-discharge rate, % of capacity per month (DIN DKE SPEC 99100 6.7.4.6)' }),
    roundtripEfficiency: percent('roundtripEfficiency', 'Initial round trip energy efficiency, %'),
    ratedCapacity: measure('ratedCapacity', { min: 0, max: 1_000_000, unit: 'Ah', description: 'Rated capacity' }),
    initialInternalResistance: list('initialInternalResistance', internalResistanceSchema, 20),
    expectedLifetime: measure('expectedLifetime', { min: 0, max: 100, integer: true, unit: 'years', description: 'Expected lifetime in calendar years' }),
    cRate: measure('cRate', { min: 0, max: 1000, unit: 'C', description: 'Voluntary: nominal charge and discharge rate' }).optional(),
    nominalVoltage: measure('nominalVoltage', VOLTAGE),
    minimumVoltage: measure('minimumVoltage', VOLTAGE),
    maximumVoltage: measure('maximumVoltage', VOLTAGE),
    capacityThresholdForExhaustion: percent('capacityThresholdForExhaustion', 'Electric vehicle batteries: state of certified energy, %, below which the battery is exhausted'),
    lifetimeReferenceTest: url('lifetimeReferenceTest').describe('Link to the reference test for the expected lifetime in cycles'),
    cRateLifeCycleTest: measure('cRateLifeCycleTest', { min: 0, max: 1000, unit: 'C', description: 'C-rate of the cycle-life test' }),
    temperatureRangeIdleState: temperatureRangeSchema.describe('Temperature range the battery can withstand when not in use'),
    // Extensions of the data model (docs/battery.md#extension-members): Annex XIII 1(h) and 1(i) give the
    // voltages and the power capability and limits "with temperature ranges when relevant"; the model has no member for them.
    voltageTemperatureRange: temperatureRangeSchema
      .optional()
      .describe('Extension of the data model: the temperature range for which the nominal, minimum and maximum voltages hold, when relevant (Annex XIII 1(h))'),
    powerTemperatureRange: temperatureRangeSchema
      .optional()
      .describe('Extension of the data model: the temperature range for which the original power capability and the power limits hold, when relevant (Annex XIII 1(i))'),
    roundTripEfficiencyat50PerCentCycleLife: percent('roundTripEfficiencyat50PerCentCycleLife', 'Round trip energy efficiency at 50 % of cycle life, %'),
    roundTripEfficiencyFade: percent('roundTripEfficiencyFade', 'Energy round trip efficiency fade, %'),
    powerFade: percent('powerFade', 'Power fade, %'),
  },
  { error: 'batteryTechicalProperties must be an object.' },
);

/** One dynamic value as the data model writes it: `{ <name>: number, lastUpdate }`. */
const dynamicValue = <const K extends string>(id: string, field: K, options: MeasureOptions, description: string) =>
  z
    .strictObject({ [field]: measure(field, options), lastUpdate: dateTime('lastUpdate') } as { [P in K]: ReturnType<typeof measure> } & { lastUpdate: ReturnType<typeof dateTime> }, {
      error: `An object with ${field} and lastUpdate is expected.`,
    })
    .meta({ id, description: `${description}, with the time of its last update` });

export const negativeEventSchema = z
  .strictObject({ negativeEvent: text('negativeEvent', 1000, { multiLine: true }).describe('What happened, e.g. an accident'), lastUpdate: dateTime('lastUpdate') }, {
    error: 'A negative event is an object with negativeEvent and lastUpdate.',
  })
  .meta({ id: 'BatteryNegativeEvent', description: 'A negative event in the battery\'s life, such as an accident' });

/**
 * Time at extreme temperatures in minutes, as DIN DKE SPEC 99100:2025-02 states it (6.7.7.5 to 6.7.7.8,
 * "Decimal [min]"; the data model's 1.2.1 Turtle says minutes too). Until issue 38 point 10 this was hours:
 * the bound is the old one of 10,000,000 h in minutes, so every value stored then holds converted
 * (lib/domain/battery/units-migration.ts, docs/battery.md#units).
 */
const MINUTES: MeasureOptions = { min: 0, max: 600_000_000, unit: 'minutes' };

export const temperatureInformationSchema = z
  .strictObject(
    {
      timeExtremeHighTemp: measure('timeExtremeHighTemp', { ...MINUTES, description: 'Time spent above the upper temperature boundary (DIN DKE SPEC 99100 6.7.7.5)' }),
      timeExtremeLowTemp: measure('timeExtremeLowTemp', { ...MINUTES, description: 'Time spent below the lower temperature boundary (DIN DKE SPEC 99100 6.7.7.6)' }),
      timeExtremeHighTempCharging: measure('timeExtremeHighTempCharging', { ...MINUTES, description: 'Time spent charging above the upper boundary (DIN DKE SPEC 99100 6.7.7.7)' }),
      timeExtremeLowTempCharging: measure('timeExtremeLowTempCharging', { ...MINUTES, description: 'Time spent charging below the lower boundary (DIN DKE SPEC 99100 6.7.7.8)' }),
      lastUpdate: dateTime('lastUpdate'),
    },
    { error: 'temperatureInformation must be an object.' },
  )
  .meta({ id: 'BatteryTemperatureInformation', description: 'Time spent at extreme temperatures, in minutes (DIN DKE SPEC 99100 6.7.7.5 to 6.7.7.8)' });

export const remainingPowerCapabilitySchema = z
  .strictObject(
    {
      remainingPowerCapabilityValue: z
        .strictObject({ atSoC: percent('atSoC'), powerCapabilityAt: measure('powerCapabilityAt', POWER), rPCLastUpdated: dateTime('rPCLastUpdated') }, {
          error: 'remainingPowerCapabilityValue is an object with atSoC, powerCapabilityAt and rPCLastUpdated.',
        })
        .meta({ id: 'BatteryRemainingPowerCapabilityAt', description: 'Remaining power capability at a state of charge, with when it was measured' }),
      lastUpdate: dateTime('lastUpdate'),
    },
    { error: 'remainingPowerCapability must be an object.' },
  )
  .meta({ id: 'BatteryRemainingPowerCapability', description: 'Remaining power capability, with the time of its last update' });

export const internalResistanceIncreaseSchema = z
  .strictObject(
    {
      internalResistanceIncreaseValue: measure('internalResistanceIncreaseValue', { min: -100, max: 10_000, unit: '%' }),
      lastUpdate: dateTime('lastUpdate'),
      batteryComponent: choice('batteryComponent', BATTERY_COMPONENTS),
    },
    { error: 'An internal resistance increase is an object with internalResistanceIncreaseValue, lastUpdate and batteryComponent.' },
  )
  .meta({ id: 'BatteryInternalResistanceIncrease', description: 'Internal resistance increase of the pack, a module or a cell, %' });

/**
 * The number of deep discharge events of one battery with its last update: an extension of the data
 * model (docs/battery.md#extension-members), the attribute of DIN DKE SPEC 99100 6.7.8.2 as the
 * consortium's longlist names it (Annex VII Part B(4)).
 */
export const deepDischargeEventsSchema = z
  .strictObject(
    {
      value: measure('value', { min: 0, max: 10_000_000, integer: true, unit: 'events', description: 'How often the voltage dropped below the lower operational limit' }),
      lastUpdate: dateTime('lastUpdate'),
    },
    { error: 'numberOfDeepDischargeEvents is an object with value and lastUpdate.' },
  )
  .meta({ id: 'BatteryDeepDischargeEvents', description: 'Number of deep discharge events, with the time of its last update (extension of the data model)' });

export const batteryConditionCompleteSchema = z.strictObject(
  {
    energyThroughput: dynamicValue('BatteryEnergyThroughput', 'energyThroughputValue', { min: 0, max: 1e12, unit: 'kWh' }, 'Energy throughput, kWh'),
    capacityThroughput: dynamicValue('BatteryCapacityThroughput', 'capacityThroughputValue', { min: 0, max: 1e12, unit: 'Ah' }, 'Capacity throughput, Ah'),
    numberOfFullCycles: dynamicValue('BatteryNumberOfFullCycles', 'numberOfFullCyclesValue', { min: 0, max: 10_000_000, unit: 'cycles' }, 'Number of full charge-discharge cycles'),
    stateOfCertifiedEnergy: dynamicValue('BatteryStateOfCertifiedEnergy', 'stateOfCertifiedEnergyValue', { min: 0, max: 200, unit: '%' }, 'State of certified energy (SOCE), % of the certified usable energy'),
    capacityFade: dynamicValue('BatteryCapacityFade', 'capacityFadeValue', { min: 0, max: 100, unit: '%' }, 'Capacity fade, %'),
    remainingEnergy: dynamicValue('BatteryRemainingEnergy', 'remainingEnergyValue', { min: 0, max: 1_000_000, unit: 'kWh' }, 'Remaining usable battery energy, kWh'),
    remainingCapacity: dynamicValue('BatteryRemainingCapacity', 'remainingCapacityValue', { min: 0, max: 1_000_000, unit: 'Ah' }, 'Remaining capacity, Ah'),
    negativeEvents: list('negativeEvents', negativeEventSchema, 100),
    temperatureInformation: temperatureInformationSchema,
    remainingPowerCapability: remainingPowerCapabilitySchema,
    evolutionOfSelfDischarge: dynamicValue(
      'BatteryEvolutionOfSelfDischarge',
      'evolutionOfSelfDischargeValue',
      { min: -10_000, max: 10_000, unit: '%' },
      'Evolution of the self-discharge rate: its change from the initial to the current rate, % (DIN DKE SPEC 99100 6.7.4.8; a relative change, not per month)',
    ),
    currentSelfDischargingRate: dynamicValue(
      'BatteryCurrentSelfDischargingRate',
      'currentSelfDischargingRateValue',
      { min: 0, max: 100, unit: '% per month' },
      'Current self-discharge rate, % of capacity per month (DIN DKE SPEC 99100 6.7.4.7)',
    ),
    internalResistanceIncrease: list('internalResistanceIncrease', internalResistanceIncreaseSchema, 20),
    remainingRoundTripEnergyEfficiency: dynamicValue(
      'BatteryRemainingRoundTripEnergyEfficiency',
      'remainingRoundTripEnergyEfficiencyValue',
      { min: 0, max: 100, unit: '%' },
      'Remaining round trip energy efficiency, %',
    ),
    stateOfCharge: dynamicValue('BatteryStateOfCharge', 'stateOfChargeValue', { min: 0, max: 100, unit: '%' }, 'State of charge, %'),
    // Extension of the data model (docs/battery.md#extension-members): optional in the complete aspect too.
    numberOfDeepDischargeEvents: deepDischargeEventsSchema.optional(),
  },
  { error: 'batteryCondition must be an object.' },
);

/** When a battery's Annex IV Part A values were measured (Annex XIII 4(a)): at its placing on the market, or when its status changed. */
export const MEASUREMENT_OCCASIONS = ['placing_on_market', 'status_change'] as const;

/**
 * One battery's values of the performance and durability parameters of Annex IV Part A, measured
 * when it was placed on the market and again when its status changed (Regulation (EU) 2023/1542
 * Annex XIII 4(a); the Commission guidance's data points 51 to 60). An extension of the data model
 * (docs/battery.md#extension-members), held by the item, read by the legitimate-interest purpose
 * of point 4: the model's `batteryTechicalProperties` of the same names are the model's declared,
 * public values (Annex XIII point 1), which one battery's measurement must not replace.
 */
export const measuredPerformanceEntrySchema = z
  .strictObject(
    {
      occasion: choice('occasion', MEASUREMENT_OCCASIONS).describe('placing_on_market, or status_change (repurposing, remanufacturing, …)'),
      lastUpdate: dateTime('lastUpdate').describe('When the values were measured'),
      ratedCapacity: measure('ratedCapacity', { min: 0, max: 1_000_000, unit: 'Ah', description: 'Rated capacity (Annex IV Part A; guidance data point 51)' }).optional(),
      capacityFade: percent('capacityFade', 'Capacity fade, % (Annex IV Part A; guidance data point 52)').optional(),
      powerCapability: list('powerCapability', powerCapabilityAtSchema, 20).optional().describe('Power at given states of charge, W (Annex IV Part A; guidance data point 53)'),
      powerFade: percent('powerFade', 'Power fade, % (Annex IV Part A; guidance data point 54)').optional(),
      internalResistance: list('internalResistance', internalResistanceSchema, 20).optional().describe('Internal resistance, Ω (Annex IV Part A; guidance data point 55)'),
      internalResistanceIncrease: measure('internalResistanceIncrease', { min: -100, max: 10_000, unit: '%', description: 'Internal resistance increase (Annex IV Part A; guidance data point 56)' }).optional(),
      roundtripEfficiency: percent('roundtripEfficiency', 'Energy round trip efficiency, %, where applicable (Annex IV Part A; guidance data point 57)').optional(),
      roundTripEfficiencyFade: percent('roundTripEfficiencyFade', 'Energy round trip efficiency fade, %, where applicable (Annex IV Part A; guidance data point 58)').optional(),
      expectedNumberOfCycles: measure('expectedNumberOfCycles', { min: 0, max: 10_000_000, integer: true, unit: 'cycles', description: 'Expected lifetime in cycles, except for non-cycle applications (Annex IV Part A; guidance data point 59)' }).optional(),
      expectedLifetime: measure('expectedLifetime', { min: 0, max: 100, integer: true, unit: 'years', description: 'Expected lifetime in calendar years (Annex IV Part A; guidance data point 60)' }).optional(),
    },
    { error: 'A measurement is an object with occasion, lastUpdate and the values measured.' },
  )
  .meta({ id: 'BatteryMeasuredPerformance', description: 'One battery\'s Annex IV Part A values, measured at its placing on the market or at a status change (extension of the data model)' });

/** The measurements, oldest first: the one at placing on the market, then one per status change. */
export const measuredPerformanceSchema = list('measuredPerformance', measuredPerformanceEntrySchema, 20).describe(
  'Extension of the data model (docs/battery.md#extension-members): this battery\'s Annex IV Part A values at its placing on the market and at each status change (Annex XIII 4(a))',
);

export const performanceAndDurabilityCompleteSchema = z.strictObject(
  {
    batteryTechicalProperties: batteryTechnicalPropertiesCompleteSchema,
    batteryCondition: batteryConditionCompleteSchema,
    // Extension of the data model (docs/battery.md#extension-members): optional in the complete aspect too.
    measuredPerformance: measuredPerformanceSchema.optional(),
  },
  { error: 'performanceAndDurability must be an object.' },
);

export const batteryTechnicalPropertiesSchema = batteryTechnicalPropertiesCompleteSchema
  .partial()
  .meta({ id: 'BatteryTechnicalProperties', description: 'Model-level performance and durability values (the data model\'s batteryTechicalProperties)' });

export const batteryConditionSchema = batteryConditionCompleteSchema
  .partial()
  .meta({ id: 'BatteryCondition', description: 'Dynamic values of one battery, each with the time of its last update' });

/** As a passport holds it: every element of both groups optional, and one battery's measured Annex IV values (an item's). */
export const performanceAndDurabilitySchema = z
  .strictObject(
    {
      batteryTechicalProperties: batteryTechnicalPropertiesSchema.optional(),
      batteryCondition: batteryConditionSchema.optional(),
      measuredPerformance: measuredPerformanceSchema.optional(),
    },
    { error: 'performanceAndDurability must be an object.' },
  )
  .meta({ id: 'BatteryPerformanceAndDurability', description: 'Performance and durability (Battery Pass data model 1.2.1, PerformanceAndDurability)' });

export type PerformanceAndDurability = z.infer<typeof performanceAndDurabilitySchema>;
