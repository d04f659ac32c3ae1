/**
 * The battery passport form's model (docs/dashboard.md#the-battery-passport-form), driven by the
 * element map (lib/domain/battery/element-map.ts): one section per aspect, one field per element,
 * the field's control chosen by the element's type (a small table here, held to the zod schemas by
 * test/unit/dashboard-battery-form.test.ts); an element that is an object or a list is edited as
 * JSON. It turns passport data into the form's text and back, and places the API's 422 (`param`,
 * `params`) at the element it names. Pure; imports only lib/ modules that import no package.
 */
import { BATTERY_CATEGORIES, BATTERY_STATUSES } from '../../lib/domain/battery/categories.ts';
import { ELEMENTS, type BatteryElement } from '../../lib/domain/battery/element-map.ts';
import { elementOf } from '../../lib/domain/battery/elements.ts';
import { copyJson, setAt, valueAt } from '../../lib/domain/battery/paths.ts';
import { labelOf } from './format.ts';

/** How an element is edited: a line of text, a link, a date and time, a number, one of a list, or JSON (an object or a list). */
export type FieldKind = 'text' | 'url' | 'datetime' | 'number' | 'choice' | 'json';

/** The controls of the elements that are not objects or lists; every other element is JSON. */
export const FIELD_KINDS: Readonly<Record<string, Exclude<FieldKind, 'json'>>> = {
  'generalProductInformation.productIdentifier': 'text',
  'generalProductInformation.batteryPassportIdentifier': 'text',
  'generalProductInformation.batteryCategory': 'choice',
  'generalProductInformation.manufacturingDate': 'datetime',
  'generalProductInformation.batteryStatus': 'choice',
  'generalProductInformation.batteryMass': 'number',
  'generalProductInformation.puttingIntoService': 'datetime',
  'generalProductInformation.warrentyPeriod': 'text',
  'generalProductInformation.commercialWarrantyPeriod': 'text',
  'carbonFootprint.batteryCarbonFootprint': 'number',
  'carbonFootprint.carbonFootprintPerformanceClass': 'text',
  'carbonFootprint.carbonFootprintStudy': 'url',
  'carbonFootprint.absoluteCarbonFootprint': 'number',
  'supplyChainDueDiligence.supplyChainDueDiligenceReport': 'url',
  'supplyChainDueDiligence.thirdPartyAussurances': 'url',
  'supplyChainDueDiligence.supplyChainIndicies': 'number',
  'circularity.safetyMeasures.safetyInstructions': 'url',
  'circularity.renewableContent': 'number',
  'circularity.wasteBatterySafetyInstructions': 'url',
  'labeling.declarationOfConformity': 'url',
  'labeling.resultOfTestReport': 'url',
  'performanceAndDurability.batteryTechicalProperties.ratedMaximumPower': 'number',
  'performanceAndDurability.batteryTechicalProperties.powerCapabilityRatio': 'number',
  'performanceAndDurability.batteryTechicalProperties.ratedEnergy': 'number',
  'performanceAndDurability.batteryTechicalProperties.expectedNumberOfCycles': 'number',
  'performanceAndDurability.batteryTechicalProperties.initialSelfDischarge': 'number',
  'performanceAndDurability.batteryTechicalProperties.roundtripEfficiency': 'number',
  'performanceAndDurability.batteryTechicalProperties.ratedCapacity': 'number',
  'performanceAndDurability.batteryTechicalProperties.expectedLifetime': 'number',
  'performanceAndDurability.batteryTechicalProperties.cRate': 'number',
  'performanceAndDurability.batteryTechicalProperties.nominalVoltage': 'number',
  'performanceAndDurability.batteryTechicalProperties.minimumVoltage': 'number',
  'performanceAndDurability.batteryTechicalProperties.maximumVoltage': 'number',
  'performanceAndDurability.batteryTechicalProperties.capacityThresholdForExhaustion': 'number',
  'performanceAndDurability.batteryTechicalProperties.lifetimeReferenceTest': 'url',
  'performanceAndDurability.batteryTechicalProperties.cRateLifeCycleTest': 'number',
  'performanceAndDurability.batteryTechicalProperties.roundTripEfficiencyat50PerCentCycleLife': 'number',
  'performanceAndDurability.batteryTechicalProperties.roundTripEfficiencyFade': 'number',
  'performanceAndDurability.batteryTechicalProperties.powerFade': 'number',
};

/** The elements edited as JSON that hold a list (the others hold an object). */
export const JSON_LISTS: ReadonlySet<string> = new Set([
  'carbonFootprint.carbonFootprintPerLifecycleStage',
  'materialComposition.batteryMaterials',
  'materialComposition.hazardousSubstances',
  // Derived by the service from the flagged batteryMaterials on every write (docs/battery.md): what is typed here is replaced.
  'materialComposition.criticalRawMaterials',
  'circularity.dismantlingAndRemovalInformation',
  'circularity.sparePartSources',
  'circularity.recycledContent',
  'circularity.safetyMeasures.extinguishingAgent',
  'labeling.labels',
  'performanceAndDurability.batteryTechicalProperties.originalPowerCapability',
  'performanceAndDurability.batteryTechicalProperties.initialInternalResistance',
  'performanceAndDurability.batteryCondition.negativeEvents',
  'performanceAndDurability.batteryCondition.internalResistanceIncrease',
]);

/** The values of the elements edited by a choice: the data model's enumerations. */
export const FIELD_CHOICES: Readonly<Record<string, readonly string[]>> = {
  'generalProductInformation.batteryCategory': BATTERY_CATEGORIES,
  'generalProductInformation.batteryStatus': BATTERY_STATUSES,
};

export interface FormField {
  /** The element's path in the passport data (`labeling.declarationOfConformity`). */
  path: string;
  /** As the API names it in a 422's `param`: `data.` and the path. */
  param: string;
  element: BatteryElement;
  kind: FieldKind;
  /** A JSON field's value is a list (else an object). */
  list: boolean;
  choices: readonly string[];
}

export interface FormAspect {
  /** The member of the passport data: `generalProductInformation`, … */
  aspect: string;
  title: string;
  fields: FormField[];
}

/** The aspect an element path or a `data.…` param lies in. */
export const aspectOf = (path: string): string => path.replace(/^data\./, '').split(/[.[]/)[0] ?? '';

/** The seven aspects in the element map's order (docs/battery.md#the-data). */
export const ASPECTS: readonly string[] = [...new Set(ELEMENTS.map((element) => aspectOf(element.path)))];

/**
 * The form's sections: each aspect with its elements in the element map's order. `level` `model`
 * (a product passported by model or batch) leaves out what each battery holds itself (an item's
 * identifiers, dates, status and condition: they go on its item); `all` (by item) has every element.
 */
export function formAspects(level: 'model' | 'all'): FormAspect[] {
  return ASPECTS.map((aspect) => ({
    aspect,
    title: labelOf(aspect),
    fields: ELEMENTS.filter((element) => aspectOf(element.path) === aspect && (level === 'all' || element.level === 'model')).map((element) => ({
      path: element.path,
      param: `data.${element.path}`,
      element,
      kind: FIELD_KINDS[element.path] ?? 'json',
      list: JSON_LISTS.has(element.path),
      choices: FIELD_CHOICES[element.path] ?? [],
    })),
  }));
}

/** The form's text of each field, by path: JSON pretty-printed for objects and lists, "" for what the data lacks. */
export type FormValues = Record<string, string>;

export function valuesOf(data: unknown, fields: readonly FormField[]): FormValues {
  return Object.fromEntries(
    fields.map((field) => {
      const value = valueAt(data, field.path);
      if (value === undefined) return [field.path, ''];
      return [field.path, field.kind === 'json' || (typeof value === 'object' && value !== null) ? JSON.stringify(value, null, 2) : String(value)];
    }),
  );
}

/** A number as typed ("452,5" too); what is not a number goes as typed, for the API to name. */
const numberOrText = (text: string): number | string => {
  const n = Number(text.trim().replace(',', '.'));
  return Number.isFinite(n) ? n : text;
};

/** Removes the value at a dotted path, and the objects it leaves empty. Mutates `target`. */
function removeAt(target: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  const parents: Record<string, unknown>[] = [target];
  for (const key of keys.slice(0, -1)) {
    const next = parents.at(-1)?.[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return;
    parents.push(next as Record<string, unknown>);
  }
  delete parents.at(-1)?.[keys.at(-1) ?? ''];
  for (let i = parents.length - 1; i > 0; i--) {
    if (Object.keys(parents[i] ?? {}).length > 0) break;
    delete parents[i - 1]?.[keys[i - 1] ?? ''];
  }
}

/**
 * The passport data the form describes: `base` (the draft or version it started from: what the
 * form does not show stays, such as a battery's own elements on a model's passport) with each
 * field's value put at its element, or removed when the field is empty. A field whose JSON does not
 * parse is reported by path instead (nothing is sent).
 */
export function dataOf(values: FormValues, fields: readonly FormField[], base: unknown): { data: Record<string, unknown>; jsonErrors: Record<string, string> } {
  const data: Record<string, unknown> = typeof base === 'object' && base !== null && !Array.isArray(base) ? copyJson(base as Record<string, unknown>) : {};
  const jsonErrors: Record<string, string> = {};
  for (const field of fields) {
    const text = values[field.path] ?? '';
    if (text.trim() === '') {
      removeAt(data, field.path);
      continue;
    }
    if (field.kind === 'json') {
      try {
        setAt(data, field.path, JSON.parse(text) as unknown);
      } catch (error) {
        jsonErrors[field.path] = `${field.element.name}: not valid JSON (${(error as Error).message}).`;
      }
    } else setAt(data, field.path, field.kind === 'number' ? numberOrText(text) : field.kind === 'choice' ? text : text.trim());
  }
  return { data, jsonErrors };
}

/**
 * Where a refusal's params go: each to the field of the element it lies in (a member of an object
 * element, `data.generalProductInformation.operatorInformation.emailAddress`, to its element's
 * field), else to its aspect's section (`data.carbonFootprint`), else to the top of the form.
 */
export function placeParams(params: readonly string[], fields: readonly FormField[]): { fields: string[]; aspects: string[]; top: boolean } {
  const shown = new Set(fields.map((field) => field.path));
  const out = { fields: [] as string[], aspects: [] as string[], top: false };
  for (const param of params) {
    const path = param.replace(/^data\.?/, '');
    const element = path ? elementOf(path) : undefined;
    if (element && shown.has(element.path)) {
      if (!out.fields.includes(element.path)) out.fields.push(element.path);
    } else if (ASPECTS.includes(aspectOf(path))) {
      if (!out.aspects.includes(aspectOf(path))) out.aspects.push(aspectOf(path));
    } else out.top = true;
  }
  return out;
}
