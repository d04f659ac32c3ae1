import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../dashboard/src/api.ts';
import {
  ASPECTS,
  dataOf,
  ENTRY_NOUNS,
  formAspects,
  MEMBER_LABELS,
  newEntry,
  placeParams,
  unitOf,
  valuesOf,
  type Control,
  type FormField,
  type FormValues,
  type SchemaSet,
} from '../../dashboard/src/battery-form.ts';
import { labelOf } from '../../dashboard/src/format.ts';
import { batteryDataEntries } from '../../dashboard/src/units.ts';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { batterySchemasJson } from '../../dashboard/build.ts';
import { BATTERY_ASPECTS } from '../../lib/domain/battery/index.ts';
import { BATTERY_CATEGORIES } from '../../lib/domain/battery/categories.ts';
import { ELEMENTS } from '../../lib/domain/battery/element-map.ts';

/**
 * The battery passport form's model (dashboard/src/battery-form.ts, docs/dashboard.md#the-battery-passport-form):
 * derived from the schemas of the API's OpenAPI document (built here as the docs function serves
 * it), every element and member has a control, a label in people's words and, for a number, its
 * unit; the example passport goes into the form and comes out unchanged; a refusal's params land
 * at the controls they name.
 */

type Json = Record<string, any>;
const EXAMPLE = JSON.parse(readFileSync(new URL('../../docs/examples/battery-passport.json', import.meta.url), 'utf8')) as Json;
const SCHEMAS = buildOpenApi().components.schemas as SchemaSet;

const ALL = formAspects('all', SCHEMAS);
const ALL_FIELDS = ALL.flatMap((aspect) => aspect.fields);
const MODEL_FIELDS = formAspects('model', SCHEMAS).flatMap((aspect) => aspect.fields);
const field = (path: string): FormField => {
  const found = ALL_FIELDS.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no field ${path}`);
  return found;
};

/** Every control under a field with the param it is shown at (`[]` for a list's entries), and the name of what holds it. */
interface Placed {
  control: Control;
  param: string;
  container: string;
}
function controls(control: Control, param: string, container: string): Placed[] {
  const here = { control, param, container };
  if (control.kind === 'group') return [here, ...control.members.flatMap((member) => controls(member, `${param}.${member.key}`, control.key))];
  if (control.kind === 'list') return [here, ...controls(control.entry, `${param}[]`, control.key)];
  return [here];
}
const EVERY = ALL_FIELDS.flatMap((f) => controls(f.control, f.param, ''));
/** The members and entries: every control below an element. */
const MEMBERS = EVERY.filter((placed) => !ALL_FIELDS.some((f) => f.param === placed.param));
const at = (param: string): Control => {
  const found = EVERY.find((placed) => placed.param === param);
  if (!found) throw new Error(`no control at ${param}`);
  return found.control;
};
const shape = (control: Control): unknown =>
  control.kind === 'group' ? Object.fromEntries(control.members.map((member) => [member.key, shape(member)])) : control.kind === 'list' ? [shape(control.entry)] : control.kind;

/** A copy of the schemas with one change made to a component. */
function withComponent(name: string, change: (schema: Json) => void): SchemaSet {
  const copy = structuredClone(SCHEMAS) as Record<string, Json>;
  change(copy[name] as Json);
  return copy as SchemaSet;
}

describe('the battery passport form', () => {
  it('has one section per aspect, one field per element labelled with its element-map name, and a control for every value the API’s schema describes', () => {
    // Act
    const kept = EVERY.filter((placed) => placed.control.kind === 'kept').map((placed) => placed.param);

    // Assess
    expect(ASPECTS).toEqual([...BATTERY_ASPECTS]);
    expect(ALL.map((aspect) => aspect.title)).toEqual([
      'General product information',
      'Carbon footprint',
      'Supply chain due diligence',
      'Material composition',
      'Circularity',
      'Labeling',
      'Performance and durability',
    ]);
    expect(ALL_FIELDS.map((f) => [f.path, f.control.label])).toEqual(ELEMENTS.map((element) => [element.path, element.name]));
    expect(kept).toEqual([]);
  });

  it('edits contacts as fieldsets, lists as rows, enumerations as selects, booleans as checkboxes, a text by language as rows of languages', () => {
    // Act
    const contact = { contactName: 'text', postalAddress: { addressCountry: 'text', postalCode: 'text', streetAddress: 'text' }, identifier: 'text', emailAddress: 'email', webAddress: 'url' };
    const lists = [
      'materialComposition.hazardousSubstances',
      'carbonFootprint.carbonFootprintPerLifecycleStage',
      'circularity.recycledContent',
      'labeling.labels',
      'circularity.sparePartSources',
      'circularity.dismantlingAndRemovalInformation',
      'performanceAndDurability.batteryTechicalProperties.initialInternalResistance',
      'performanceAndDurability.batteryTechicalProperties.originalPowerCapability',
      'performanceAndDurability.batteryCondition.negativeEvents',
    ];
    const category = field('generalProductInformation.batteryCategory').control;

    // Assess
    expect(shape(field('generalProductInformation.manufacturerInformation').control)).toEqual(contact);
    expect(shape(field('generalProductInformation.operatorInformation').control)).toEqual(contact);
    expect(lists.map((path) => [path, field(path).control.kind])).toEqual(lists.map((path) => [path, 'list']));
    expect(shape(field('labeling.labels').control)).toEqual([{ labelingSymbol: 'url', labelingMeaning: 'texts', labelingSubject: 'choice' }]);
    expect(shape(field('circularity.sparePartSources').control)).toEqual([
      {
        nameOfSupplier: 'text',
        addressOfSupplier: { addressCountry: 'text', postalCode: 'text', streetAddress: 'text' },
        emailAddressOfSupplier: 'email',
        supplierWebAddress: 'url',
        components: [{ partName: 'text', partNumber: 'text' }],
      },
    ]);
    expect(category.kind === 'choice' && category.choices).toEqual([...BATTERY_CATEGORIES]);
    expect(at('data.materialComposition.batteryMaterials[].isCriticalRawMaterial').kind).toBe('boolean');
    expect(at('data.performanceAndDurability.batteryCondition.negativeEvents[].negativeEvent').kind).toBe('textarea');
    expect(at('data.generalProductInformation.puttingIntoService').kind).toBe('datetime');
    expect(at('data.circularity.safetyMeasures.extinguishingAgent[]').kind).toBe('text');
  });

  it('labels every member and entry from its table, in people’s words, never by splitting its name', () => {
    // Prepare: the members whose label is, on purpose, what splitting their name gives (reviewed words of the regulation)
    const reviewed = ['ohmicResistance', 'ratedCapacity', 'capacityFade', 'powerFade', 'internalResistanceIncrease'];

    // Act
    const unlabelled = MEMBERS.filter((placed) => !placed.control.labelled).map((placed) => placed.param);
    const split = MEMBERS.filter((placed) => placed.control.label.toLowerCase() === labelOf(placed.control.key).toLowerCase()).map((placed) => placed.control.key);

    // Assess
    expect(unlabelled).toEqual([]);
    expect([...new Set(split)].sort()).toEqual([...reviewed].sort());
    expect(at('data.performanceAndDurability.batteryTechicalProperties.originalPowerCapability[].atSoC').label).toBe('State of charge');
    expect(at('data.performanceAndDurability.batteryTechicalProperties.originalPowerCapability[].powerCapabilityAt').label).toBe('Power capability');
    expect(at('data.performanceAndDurability.batteryTechicalProperties.initialInternalResistance[].batteryComponent').label).toBe('Part of the battery');
    expect(at('data.performanceAndDurability.batteryCondition.numberOfDeepDischargeEvents.value').label).toBe('Number of events');
    expect(at('data.labeling.labels[]').label).toBe(ENTRY_NOUNS.labels);
  });

  it('shows a member the tables do not know by its name as the data writes it, not split into words', () => {
    // Prepare: a member added to the schema that no table names yet
    const schemas = withComponent('BatteryNegativeEvent', (schema) => {
      schema.properties.reportedByWorkshop = { type: 'string', maxLength: 200 };
    });

    // Act
    const events = formAspects('all', schemas).flatMap((aspect) => aspect.fields).find((f) => f.path === 'performanceAndDurability.batteryCondition.negativeEvents');
    const added = events?.control.kind === 'list' && events.control.entry.kind === 'group' ? events.control.entry.members.find((member) => member.key === 'reportedByWorkshop') : undefined;

    // Assess
    expect(added).toMatchObject({ kind: 'text', label: 'reportedByWorkshop', labelled: false });
    expect(MEMBER_LABELS.reportedByWorkshop).toBeUndefined();
  });

  it('shows a unit beside every number, the unit its schema states', () => {
    // Act
    const numbers = EVERY.filter((placed) => placed.control.kind === 'number');
    const unitless = numbers.filter((placed) => placed.control.kind === 'number' && placed.control.unit === undefined).map((placed) => placed.param);
    const unit = (param: string) => {
      const control = at(param);
      return control.kind === 'number' ? control.unit : `not a number: ${control.kind}`;
    };

    // Assess: only the index whose scale the schema says is not fixed has none
    expect(numbers.length).toBeGreaterThan(60);
    expect(unitless).toEqual(['data.supplyChainDueDiligence.supplyChainIndicies']);
    expect(unit('data.generalProductInformation.batteryMass')).toBe('kg');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.ratedMaximumPower')).toBe('W');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.nominalVoltage')).toBe('V');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.ratedCapacity')).toBe('Ah');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.ratedEnergy')).toBe('kWh');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.initialInternalResistance[].ohmicResistance')).toBe('Ω');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.temperatureRangeIdleState.minimum')).toBe('°C');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.originalPowerCapability[].atSoC')).toBe('%');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.expectedNumberOfCycles')).toBe('cycles');
    expect(unit('data.performanceAndDurability.batteryTechicalProperties.expectedLifetime')).toBe('years');
    expect(unit('data.carbonFootprint.batteryCarbonFootprint')).toMatch(/^kg CO₂e/);
    expect(unit('data.materialComposition.batteryMaterials[].batteryMaterialMass')).toBe('kg');
  });

  it('reads the unit from the schema, so a unit changed there shows in the form', () => {
    // Prepare: the time at extreme temperatures stated in minutes
    const schemas = withComponent('BatteryTemperatureInformation', (schema) => {
      schema.properties.timeExtremeHighTemp.description = 'Time spent above the upper temperature boundary. In minutes, 0 to 600000000';
    });

    // Act
    const temperature = formAspects('all', schemas).flatMap((aspect) => aspect.fields).find((f) => f.path === 'performanceAndDurability.batteryCondition.temperatureInformation');
    const high = temperature?.control.kind === 'group' ? temperature.control.members.find((member) => member.key === 'timeExtremeHighTemp') : undefined;

    // Assess
    expect(high?.kind === 'number' && high.unit).toBe('minutes');
    expect(unitOf('Self-discharge rate. In % per month, 0 to 100')).toBe('% per month');
    expect(unitOf('Absolute carbon footprint. In t CO2e, -1e+21 to 1e+21')).toBe('t CO₂e');
    expect(unitOf('Supply chain due diligence index (its scale is not fixed yet). -1000000 to 1000000')).toBeUndefined();
  });

  it('takes the example passport into its controls and gives it back unchanged', () => {
    // Act
    const values = valuesOf(EXAMPLE, ALL_FIELDS);
    const data = dataOf(values, ALL_FIELDS, {});

    // Assess
    expect(values['generalProductInformation.batteryMass']).toBe('452.5');
    expect((values['generalProductInformation.operatorInformation'] as Json).postalAddress.postalCode).toBe('5611 AB');
    expect((values['labeling.labels'] as Json[])[0]?.labelingMeaning).toEqual(Object.entries(EXAMPLE.labeling.labels[0].labelingMeaning).map(([language, text]) => ({ language, text })));
    expect(data).toEqual(EXAMPLE);
  });

  it('sends what the controls say: a model’s form keeps each battery’s own elements, an emptied element goes with the objects it empties, a decimal comma is read', () => {
    // Prepare
    const values: FormValues = {
      ...valuesOf(EXAMPLE, MODEL_FIELDS),
      'supplyChainDueDiligence.supplyChainDueDiligenceReport': '',
      'supplyChainDueDiligence.thirdPartyAussurances': '',
      'supplyChainDueDiligence.supplyChainIndicies': ' ',
      'generalProductInformation.batteryMass': '452,5',
      'generalProductInformation.manufacturerInformation': { contactName: ' Cell Maker GmbH ', postalAddress: { addressCountry: '', postalCode: '', streetAddress: '' } },
    };

    // Act
    const data = dataOf(values, MODEL_FIELDS, EXAMPLE) as Json;

    // Assess
    expect(data.generalProductInformation.batteryStatus).toBe(EXAMPLE.generalProductInformation.batteryStatus);
    expect(data.performanceAndDurability.batteryCondition).toEqual(EXAMPLE.performanceAndDurability.batteryCondition);
    expect(data.supplyChainDueDiligence).toBeUndefined();
    expect(data.generalProductInformation.batteryMass).toBe(452.5);
    expect(data.generalProductInformation.manufacturerInformation).toEqual({ contactName: 'Cell Maker GmbH' });
    expect(EXAMPLE.supplyChainDueDiligence).toBeDefined();
  });

  it('sends an added row even left empty (the API names what it lacks), an emptied list as none, and leaves a list never given out', () => {
    // Prepare
    const labels = field('labeling.labels');
    const materials = field('materialComposition.batteryMaterials');
    const events = field('performanceAndDurability.batteryCondition.negativeEvents');
    const agents = field('circularity.safetyMeasures.extinguishingAgent');
    if (labels.control.kind !== 'list' || materials.control.kind !== 'list') throw new Error('lists expected');
    const fields = [labels, materials, events, agents];
    const values: FormValues = {
      'labeling.labels': [
        { labelingSymbol: 'https://www.cell-maker.example/labels/ce.svg', labelingSubject: 'HazardousMaterial', labelingMeaning: [{ language: 'de', text: ' Gefahr ' }, { language: 'en', text: 'Danger' }] },
        newEntry(labels.control.entry),
      ],
      'materialComposition.batteryMaterials': [newEntry(materials.control.entry)],
      'performanceAndDurability.batteryCondition.negativeEvents': [],
      'circularity.safetyMeasures.extinguishingAgent': undefined,
    };

    // Act
    const data = dataOf(values, fields, {}) as Json;

    // Assess
    expect(data.labeling.labels).toEqual([{ labelingSymbol: 'https://www.cell-maker.example/labels/ce.svg', labelingSubject: 'HazardousMaterial', labelingMeaning: { de: 'Gefahr', en: 'Danger' } }, {}]);
    expect(data.materialComposition.batteryMaterials).toEqual([{ isCriticalRawMaterial: false }]);
    expect(data.performanceAndDurability.batteryCondition.negativeEvents).toEqual([]);
    expect(data.circularity).toBeUndefined();
  });

  it('places a refusal’s params at the controls they name, an entry the form no longer has at its list, an aspect’s at its section, the rest at the top', () => {
    // Prepare
    const values = valuesOf(EXAMPLE, MODEL_FIELDS);

    // Act
    const placed = placeParams(
      [
        'data.generalProductInformation.operatorInformation.emailAddress',
        'data.labeling.labels[1].labelingMeaning.de',
        'data.labeling.labels[0].labelingSymbol',
        'data.materialComposition.hazardousSubstances[7].hazardousSubstanceName',
        'data.labeling.declarationOfConformity',
        'data.performanceAndDurability.batteryCondition.stateOfCharge',
        'data.carbonFootprint',
        'data',
        'asOf',
      ],
      MODEL_FIELDS,
      values,
    );

    // Assess
    expect(placed.fields).toEqual([
      'data.generalProductInformation.operatorInformation.emailAddress',
      'data.labeling.labels[1].labelingMeaning.de',
      'data.labeling.labels[0].labelingSymbol',
      'data.materialComposition.hazardousSubstances',
      'data.labeling.declarationOfConformity',
    ]);
    expect(placed.aspects).toEqual(['performanceAndDurability', 'carbonFootprint']);
    expect(placed.top).toBe(true);
  });

  it('reads every field a publication names as missing, and a single param as one', () => {
    // Act
    const several = new ApiError(422, { type: 'validation_error', message: 'The battery passport lacks 2 elements…', param: 'data.a', params: ['data.a', 'data.b'] });
    const one = new ApiError(422, { type: 'validation_error', message: 'x must be…', param: 'data.x' });
    const none = new ApiError(422, { type: 'validation_error', message: 'Bad.' });

    // Assess
    expect(several.params).toEqual(['data.a', 'data.b']);
    expect(one.params).toEqual(['data.x']);
    expect(none.params).toEqual([]);
  });
});

describe('a battery item’s data on its page', () => {
  it('is shown in the form’s words, each number with its unit', () => {
    // Prepare
    const data = {
      generalProductInformation: { batteryStatus: 'Repurposed' },
      performanceAndDurability: {
        batteryCondition: {
          stateOfCertifiedEnergy: { stateOfCertifiedEnergyValue: 96.4, lastUpdate: '2028-06-30T22:00:00Z' },
          negativeEvents: [{ negativeEvent: 'Water ingress after a flood', lastUpdate: '2028-07-01T08:00:00Z' }],
        },
      },
    };

    // Act
    const entries = batteryDataEntries(data, SCHEMAS);
    const row = (path: string) => entries.find((entry) => entry.path === path);

    // Assess
    expect(row('generalProductInformation.batteryStatus')).toMatchObject({ label: 'Battery status', value: 'Repurposed' });
    expect(row('performanceAndDurability.batteryCondition.stateOfCertifiedEnergy.stateOfCertifiedEnergyValue')).toMatchObject({
      label: `${ELEMENTS.find((element) => element.path === 'performanceAndDurability.batteryCondition.stateOfCertifiedEnergy')?.name} › Value`,
      value: (96.4).toLocaleString(),
      unit: '%',
    });
    expect(row('performanceAndDurability.batteryCondition.negativeEvents[0].negativeEvent')?.label).toMatch(/ › Event 1 › What happened$/);
    expect(entries).toHaveLength(5);
  });
});


describe('the battery form’s schemas, beside the app (dashboard/build.ts)', () => {
  it('hold every schema the battery data reaches, each reference resolving, at a small part of the whole document', () => {
    // Prepare
    const whole = JSON.stringify(buildOpenApi());

    // Act
    const asset = batterySchemasJson();
    const schemas = JSON.parse(asset) as Record<string, unknown>;
    const refs = [...asset.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1] as string);

    // Assess: the form finds what it derives controls from, and nothing dangles.
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['BatteryPassportData', 'BatteryItemData', 'BatteryContactInformation', 'BatteryMeasuredPerformance']));
    expect(refs.filter((name) => !(name in schemas))).toEqual([]);
    expect(formAspects('all', schemas as SchemaSet).length).toBe(BATTERY_ASPECTS.length);
    expect(asset.length).toBeLessThan(whole.length / 5);
  });
});
