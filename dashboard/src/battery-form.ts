/**
 * The battery passport form's model (docs/dashboard.md#the-battery-passport-form). One section per
 * aspect, one field per element of the element map (lib/domain/battery/element-map.ts), labelled
 * with the element's name. Each element's controls are derived from the JSON Schema the API's
 * OpenAPI document gives for the passport data (`GET /v1/openapi.json`, generated from the zod
 * schemas the API validates with; the bundle holds no zod, test/unit/dashboard.test.ts): an object
 * is a fieldset of its members, a list repeatable rows, an enumeration a select, a boolean a
 * checkbox, a number an input with its unit beside it (read from the schema's description,
 * "… In W, 0 to 1000"), a text by language rows of a language and its text. Members are labelled
 * from MEMBER_LABELS, in people's words, never by splitting the member's name.
 *
 * It turns passport data into the form's values and back, and places the API's 422 (`param`,
 * `params`) at the control it names. Pure; imports only lib/ modules that import no package.
 */
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { ELEMENTS, type BatteryElement } from '../../lib/domain/battery/element-map.ts';
import { copyJson, setAt, valueAt } from '../../lib/domain/battery/paths.ts';

// ---- The schema the form is derived from ----------------------------------------------------

/** The part of a JSON Schema (2020-12, as the OpenAPI document writes it) the form reads. */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly maxItems?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly description?: string;
}

/** The OpenAPI document's `components.schemas`, by name. */
export type SchemaSet = Readonly<Record<string, JsonSchema>>;

/** The component of the passport data a battery product's draft and versions hold. */
export const PASSPORT_DATA_SCHEMA = 'BatteryPassportData';

// ---- Words --------------------------------------------------------------------------------

/** Each aspect's title (docs/battery.md#the-data). */
export const ASPECT_TITLES: Readonly<Record<string, string>> = {
  generalProductInformation: 'General product information',
  carbonFootprint: 'Carbon footprint',
  supplyChainDueDiligence: 'Supply chain due diligence',
  materialComposition: 'Material composition',
  circularity: 'Circularity',
  labeling: 'Labeling',
  performanceAndDurability: 'Performance and durability',
};

/**
 * The members of elements in people's words, by member name, or by `container.member` where the
 * name alone says too little (`numberOfDeepDischargeEvents.value`). The container of a list's
 * entries is the list. Held complete for every member the schema has by
 * test/unit/dashboard-battery-form.test.ts; a member without an entry is shown by its name.
 */
export const MEMBER_LABELS: Readonly<Record<string, string>> = {
  // Contact information and postal addresses
  contactName: 'Name',
  postalAddress: 'Address',
  addressCountry: 'Country',
  postalCode: 'Postcode',
  streetAddress: 'Street and number',
  identifier: 'Identifier of the organization',
  emailAddress: 'E-mail',
  webAddress: 'Website',
  // Carbon footprint
  lifecycleStage: 'Life cycle stage',
  'carbonFootprintPerLifecycleStage.carbonFootprint': 'Carbon footprint of the stage',
  // Material composition
  shortName: 'Abbreviation',
  clearName: 'Full name',
  batteryMaterialLocation: 'Where in the battery',
  hazardousSubstanceLocation: 'Where in the battery',
  componentName: 'Component',
  componentId: 'Component identifier',
  batteryMaterialIdentifier: 'CAS number',
  batteryMaterialName: 'Material',
  batteryMaterialMass: 'Mass',
  isCriticalRawMaterial: 'Critical raw material',
  hazardousSubstanceClass: 'Hazard class',
  hazardousSubstanceName: 'Substance',
  hazardousSubstanceConcentration: 'Concentration',
  hazardousSubstanceImpact: 'Impact statements',
  hazardousSubstanceIdentifier: 'CAS number',
  criticalRawMaterialName: 'Material',
  criticalRawMaterialConcentration: 'Share of the battery’s mass',
  // Circularity
  documentType: 'Kind of document',
  mimeType: 'Media type',
  documentURL: 'Link',
  nameOfSupplier: 'Supplier',
  addressOfSupplier: 'Address',
  emailAddressOfSupplier: 'E-mail',
  supplierWebAddress: 'Website',
  'sparePartSources.components': 'Spare parts',
  partName: 'Name',
  partNumber: 'Number',
  recycledMaterial: 'Material',
  preConsumerShare: 'Pre-consumer share',
  postConsumerShare: 'Post-consumer share',
  wastePrevention: 'Role in waste prevention',
  separateCollection: 'Role in separate collection',
  informationOnCollection: 'Collection, take-back, re-use and recycling',
  // Labeling
  labelingSymbol: 'Symbol',
  labelingMeaning: 'Meaning',
  labelingSubject: 'Subject',
  // Performance and durability
  atSoC: 'State of charge',
  powerCapabilityAt: 'Power capability',
  ohmicResistance: 'Ohmic resistance',
  batteryComponent: 'Part of the battery',
  minimum: 'Lowest',
  maximum: 'Highest',
  lastUpdate: 'Last updated',
  energyThroughputValue: 'Value',
  capacityThroughputValue: 'Value',
  numberOfFullCyclesValue: 'Value',
  stateOfCertifiedEnergyValue: 'Value',
  capacityFadeValue: 'Value',
  remainingEnergyValue: 'Value',
  remainingCapacityValue: 'Value',
  evolutionOfSelfDischargeValue: 'Value',
  currentSelfDischargingRateValue: 'Value',
  internalResistanceIncreaseValue: 'Value',
  remainingRoundTripEnergyEfficiencyValue: 'Value',
  stateOfChargeValue: 'Value',
  remainingPowerCapabilityValue: 'Value',
  rPCLastUpdated: 'Measured',
  negativeEvent: 'What happened',
  timeExtremeHighTemp: 'Time above the upper limit',
  timeExtremeLowTemp: 'Time below the lower limit',
  timeExtremeHighTempCharging: 'Time charging above the upper limit',
  timeExtremeLowTempCharging: 'Time charging below the lower limit',
  'numberOfDeepDischargeEvents.value': 'Number of events',
  // One battery's measured Annex IV values (measuredPerformance)
  'measuredPerformance.occasion': 'Occasion of the measurement',
  'measuredPerformance.lastUpdate': 'Measured on',
  ratedCapacity: 'Rated capacity',
  capacityFade: 'Capacity fade',
  powerCapability: 'Power capability at states of charge',
  powerFade: 'Power fade',
  internalResistance: 'Internal resistance of the pack, modules or cells',
  'measuredPerformance.internalResistanceIncrease': 'Internal resistance increase',
  roundtripEfficiency: 'Round trip energy efficiency',
  roundTripEfficiencyFade: 'Round trip energy efficiency fade',
  expectedNumberOfCycles: 'Expected lifetime in cycles',
  expectedLifetime: 'Expected lifetime in calendar years',
};

/** What one entry of a list is called, by the list's name ("Add label", "Label 2"). */
export const ENTRY_NOUNS: Readonly<Record<string, string>> = {
  carbonFootprintPerLifecycleStage: 'Stage',
  batteryMaterials: 'Material',
  hazardousSubstances: 'Substance',
  hazardousSubstanceImpact: 'Statement',
  criticalRawMaterials: 'Material',
  dismantlingAndRemovalInformation: 'Document',
  sparePartSources: 'Source',
  components: 'Part',
  recycledContent: 'Material',
  extinguishingAgent: 'Agent',
  labels: 'Label',
  originalPowerCapability: 'Measurement',
  initialInternalResistance: 'Resistance',
  negativeEvents: 'Event',
  internalResistanceIncrease: 'Increase',
  measuredPerformance: 'Measurement',
  powerCapability: 'Measurement',
  internalResistance: 'Resistance',
};

const memberLabel = (container: string, key: string): string | undefined => MEMBER_LABELS[`${container}.${key}`] ?? MEMBER_LABELS[key];

// ---- Controls -------------------------------------------------------------------------------

interface ControlBase {
  /** The member's name in the data (an element's: the last part of its path). */
  readonly key: string;
  /** In people's words: the element map's name, or the member's MEMBER_LABELS entry. */
  readonly label: string;
  /** False when no table gives the label (it is then the member's name as the data writes it). */
  readonly labelled: boolean;
  readonly required: boolean;
  /** What the schema says of it, without the unit and bounds a number's description ends with. */
  readonly description: string | undefined;
}

export type ScalarKind = 'text' | 'textarea' | 'url' | 'email' | 'datetime';

/**
 * How a value is edited. `kept`: a shape the form has no control for (or an element the schema does
 * not describe): its value is kept as it is.
 */
export type Control = ControlBase &
  (
    | { readonly kind: ScalarKind; readonly maxLength: number | undefined }
    | { readonly kind: 'number'; readonly unit: string | undefined; readonly integer: boolean; readonly minimum: number | undefined; readonly maximum: number | undefined }
    | { readonly kind: 'choice'; readonly choices: readonly string[] }
    | { readonly kind: 'boolean' }
    | { readonly kind: 'group'; readonly members: readonly Control[] }
    | { readonly kind: 'list'; readonly entry: Control; readonly maxItems: number | undefined; readonly noun: string }
    | { readonly kind: 'texts'; readonly languages: readonly string[]; readonly maxLength: number | undefined }
    | { readonly kind: 'kept' }
  );

/** The unit a number's description states ("Rated capacity. In Ah, 0 to 1000000" → `Ah`), as printed (CO₂). */
export function unitOf(description: string | undefined): string | undefined {
  const unit = /(?:^|\.\s)In (.+?), -?[\d.e+]+ to -?[\d.e+]+$/.exec(description ?? '')?.[1];
  return unit?.replace(/CO2/g, 'CO₂');
}

/** A description without the unit and bounds `measure` adds to it (lib/domain/battery/fields.ts). */
const whatOf = (description: string | undefined): string | undefined => {
  const what = description?.replace(/(?:^|\.\s)(?:In .+?, )?-?[\d.e+]+ to -?[\d.e+]+$/, '').trim();
  return what ? what : undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `$ref` resolved in `schemas`, the referring schema's own keywords (its description) kept over the target's. */
function resolve(schema: JsonSchema | undefined, schemas: SchemaSet): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const target = schemas[schema.$ref.replace(/^#\/components\/schemas\//, '')];
  if (!target) return undefined;
  const { $ref: _ref, ...own } = schema;
  return resolve({ ...target, ...own }, schemas);
}

const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : (schema.type as string | undefined));

/** Text over several lines: the schema's pattern takes a line break (lib/domain/battery/fields.ts MULTI_LINE_PATTERN). */
function multiLine(schema: JsonSchema): boolean {
  if (!schema.pattern) return false;
  try {
    return new RegExp(schema.pattern, 'u').test('a\nb');
  } catch {
    return false;
  }
}

/** A text by language (the data model's MultiLanguageText): an object whose members are all language codes. */
const isTexts = (properties: Readonly<Record<string, JsonSchema>>): boolean => {
  const keys = Object.keys(properties);
  return keys.length > 0 && keys.every((key) => (LANGUAGES as readonly string[]).includes(key));
};

/** The control for `schema`, the value named `key` (a group's key is its members' container in MEMBER_LABELS). */
function controlOf(schema: JsonSchema | undefined, key: string, base: Omit<ControlBase, 'key' | 'description'>, schemas: SchemaSet, depth = 0): Control {
  const resolved = resolve(schema, schemas);
  const common = { ...base, key, description: whatOf(resolved?.description) };
  if (!resolved || depth > 12) return { ...common, kind: 'kept' };
  const type = typeOf(resolved);
  if (resolved.enum && resolved.enum.every((value) => typeof value === 'string')) return { ...common, kind: 'choice', choices: resolved.enum as readonly string[] };
  switch (type) {
    case 'string': {
      const kind: ScalarKind =
        resolved.format === 'uri' ? 'url' : resolved.format === 'email' ? 'email' : resolved.format === 'date-time' ? 'datetime' : multiLine(resolved) ? 'textarea' : 'text';
      return { ...common, kind, maxLength: resolved.maxLength };
    }
    case 'number':
    case 'integer':
      return { ...common, kind: 'number', unit: unitOf(resolved.description), integer: type === 'integer', minimum: resolved.minimum, maximum: resolved.maximum };
    case 'boolean':
      return { ...common, kind: 'boolean' };
    case 'array': {
      const noun = ENTRY_NOUNS[key] ?? 'Entry';
      const entry = controlOf(resolved.items, key, { label: noun, labelled: ENTRY_NOUNS[key] !== undefined, required: true }, schemas, depth + 1);
      return { ...common, kind: 'list', entry, maxItems: resolved.maxItems, noun };
    }
    case 'object': {
      const properties = resolved.properties ?? {};
      if (isTexts(properties)) {
        const first = resolve(Object.values(properties)[0], schemas);
        return { ...common, kind: 'texts', languages: Object.keys(properties), maxLength: first?.maxLength };
      }
      const required = new Set(resolved.required ?? []);
      const members = Object.entries(properties).map(([member, memberSchema]) => {
        const label = memberLabel(key, member);
        return controlOf(memberSchema, member, { label: label ?? member, labelled: label !== undefined, required: required.has(member) }, schemas, depth + 1);
      });
      return { ...common, kind: 'group', members };
    }
    default:
      return { ...common, kind: 'kept' };
  }
}

/** The schema at an element's path (through objects) in the passport data's schema, if it has one. */
export function schemaAt(schemas: SchemaSet, path: string): JsonSchema | undefined {
  let schema = resolve(schemas[PASSPORT_DATA_SCHEMA], schemas);
  for (const key of path.split('.')) {
    schema = resolve(schema?.properties?.[key], schemas);
    if (!schema) return undefined;
  }
  return schema;
}

// ---- Sections and fields ------------------------------------------------------------------

export interface FormField {
  /** The element's path in the passport data (`labeling.declarationOfConformity`). */
  path: string;
  /** As the API names it in a 422's `param`: `data.` and the path. */
  param: string;
  element: BatteryElement;
  control: Control;
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
 * The form's sections: each aspect with its elements in the element map's order, each element's
 * control derived from `schemas`. `level` `model` (a product passported by model or batch) leaves
 * out what each battery holds itself (an item's identifiers, dates, status and condition: they go
 * on its item); `all` (by item) has every element.
 */
export function formAspects(level: 'model' | 'all', schemas: SchemaSet): FormAspect[] {
  return ASPECTS.map((aspect) => ({
    aspect,
    title: ASPECT_TITLES[aspect] ?? aspect,
    fields: ELEMENTS.filter((element) => aspectOf(element.path) === aspect && (level === 'all' || element.level === 'model')).map((element) => {
      const key = element.path.split('.').at(-1) ?? element.path;
      return {
        path: element.path,
        param: `data.${element.path}`,
        element,
        control: controlOf(schemaAt(schemas, element.path), key, { label: element.name, labelled: true, required: false }, schemas),
      };
    }),
  }));
}

// ---- Values ---------------------------------------------------------------------------------

/**
 * A control's value in the form: text as typed for text, numbers and choices ("" for none), a
 * boolean, an object of members' values, an array of entries' values (undefined: the data has no
 * list), rows of `{ language, text }`, or a kept value as the data holds it.
 */
export type FormValue = string | number | boolean | null | readonly FormValue[] | { readonly [key: string]: FormValue | undefined };

/** The form's value of each field, by element path. */
export type FormValues = Record<string, FormValue | undefined>;

/** A row of a text by language (a type, not an interface, so that it is a FormValue). */
export type TextRow = { readonly language: string; readonly text: string };

const textOf = (value: unknown): string => (value === undefined || value === null ? '' : typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value as number | boolean));

/** The form's value of `data` for `control`. */
export function toForm(control: Control, data: unknown): FormValue | undefined {
  switch (control.kind) {
    case 'text':
    case 'textarea':
    case 'url':
    case 'email':
    case 'datetime':
    case 'number':
    case 'choice':
      return textOf(data);
    case 'boolean':
      return typeof data === 'boolean' ? data : undefined;
    case 'group': {
      const source = isRecord(data) ? data : {};
      const out: Record<string, FormValue | undefined> = {};
      for (const member of control.members) {
        const value = toForm(member, source[member.key]);
        if (value !== undefined) out[member.key] = value;
      }
      return out;
    }
    case 'list':
      return Array.isArray(data) ? data.map((entry) => toForm(control.entry, entry) ?? '') : undefined;
    case 'texts':
      return isRecord(data) ? Object.entries(data).map(([language, text]): FormValue => ({ language, text: textOf(text) })) : undefined;
    case 'kept':
      return data === undefined ? undefined : (copyJson(data) as FormValue);
  }
}

/** A number as typed ("452,5" too); what is not a number goes as typed, for the API to name. */
const numberOrText = (text: string): number | string => {
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? n : text;
};

const textIn = (value: FormValue | undefined): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The data `value` describes for `control`, or undefined for none: empty text, an object none of
 * whose members is given (outside a list's entry), no list. An entry of a list is always sent, so
 * that an entry left empty is named by the API (`labels[1].labelingSymbol is required`).
 */
export function fromForm(control: Control, value: FormValue | undefined, entry = false): unknown {
  switch (control.kind) {
    case 'text':
    case 'textarea':
    case 'url':
    case 'email':
    case 'datetime':
    case 'choice': {
      const text = textIn(value);
      return text === '' ? (entry ? '' : undefined) : text;
    }
    case 'number': {
      const text = textIn(value);
      return text === '' ? (entry ? '' : undefined) : numberOrText(text);
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'group': {
      const source = isRecord(value) ? value : {};
      const out: Record<string, unknown> = {};
      for (const member of control.members) {
        const data = fromForm(member, source[member.key]);
        if (data !== undefined) out[member.key] = data;
      }
      return Object.keys(out).length > 0 || entry ? out : undefined;
    }
    case 'list':
      return Array.isArray(value) ? value.map((row: FormValue) => fromForm(control.entry, row, true)) : undefined;
    case 'texts':
      if (!Array.isArray(value)) return undefined;
      return Object.fromEntries((value as readonly TextRow[]).map((row) => [row.language, row.text.trim()]));
    case 'kept':
      return value === undefined ? undefined : copyJson(value);
  }
}

/** A fresh entry of a list: an object with its required booleans false, else empty. */
export function newEntry(control: Control): FormValue {
  switch (control.kind) {
    case 'group':
      return Object.fromEntries(control.members.filter((member) => member.kind === 'boolean' && member.required).map((member) => [member.key, false]));
    case 'list':
    case 'texts':
      return [];
    case 'boolean':
      return false;
    default:
      return '';
  }
}

/** True when the field gives nothing: its element would be left out of the data. */
export const isEmpty = (field: FormField, value: FormValue | undefined): boolean => (field.control.kind === 'kept' ? value === undefined : fromForm(field.control, value) === undefined);

export function valuesOf(data: unknown, fields: readonly FormField[]): FormValues {
  return Object.fromEntries(fields.map((field) => [field.path, toForm(field.control, valueAt(data, field.path))]));
}

/** Removes the value at a dotted path, and the objects it leaves empty. Mutates `target`. */
function removeAt(target: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  const parents: Record<string, unknown>[] = [target];
  for (const key of keys.slice(0, -1)) {
    const next = parents.at(-1)?.[key];
    if (!isRecord(next)) return;
    parents.push(next);
  }
  delete parents.at(-1)?.[keys.at(-1) ?? ''];
  for (let i = parents.length - 1; i > 0; i--) {
    if (Object.keys(parents[i] ?? {}).length > 0) break;
    delete parents[i - 1]?.[keys[i - 1] ?? ''];
  }
}

/**
 * The passport data the form describes: `base` (the draft or version it started from: what the
 * form does not show stays, such as a battery's own elements on a model's passport, or an element
 * the schema does not describe) with each field's value put at its element, or removed when the
 * field gives nothing.
 */
export function dataOf(values: FormValues, fields: readonly FormField[], base: unknown): Record<string, unknown> {
  const data: Record<string, unknown> = isRecord(base) ? copyJson(base) : {};
  for (const field of fields) {
    if (field.control.kind === 'kept') continue;
    const value = fromForm(field.control, values[field.path]);
    if (value === undefined) removeAt(data, field.path);
    else setAt(data, field.path, value);
  }
  return data;
}

// ---- Where a refusal goes -------------------------------------------------------------------

/**
 * The `data.…` params of the controls the form shows for these values: each field's, its members',
 * each entry of a list (`…labels[0]`) and its members', each language of a text by language
 * (`…labelingMeaning.de`).
 */
export function shownParams(fields: readonly FormField[], values: FormValues): Set<string> {
  const out = new Set<string>();
  const walk = (control: Control, param: string, value: FormValue | undefined) => {
    out.add(param);
    if (control.kind === 'group') for (const member of control.members) walk(member, `${param}.${member.key}`, isRecord(value) ? value[member.key] : undefined);
    else if (control.kind === 'list' && Array.isArray(value)) value.forEach((row: FormValue, index: number) => walk(control.entry, `${param}[${index}]`, row));
    else if (control.kind === 'texts' && Array.isArray(value)) for (const row of value as readonly TextRow[]) out.add(`${param}.${row.language}`);
  };
  for (const field of fields) walk(field.control, field.param, values[field.path]);
  return out;
}

/** A param's parent: `a.b[2].c` → `a.b[2]` → `a.b` → `a`; `data` has none. */
const parentOf = (param: string): string | undefined => {
  const cut = Math.max(param.lastIndexOf('.'), param.lastIndexOf('['));
  return cut > 0 ? param.slice(0, cut) : undefined;
};

/**
 * Where a refusal's params go: each to the control the form shows for it, else to the nearest one
 * that holds it (an entry the form no longer has: its list), else to its aspect's section
 * (`data.carbonFootprint`), else to the top of the form. `fields` lists each control's param once.
 */
export function placeParams(params: readonly string[], fields: readonly FormField[], values: FormValues): { fields: string[]; aspects: string[]; top: boolean } {
  const shown = shownParams(fields, values);
  const out = { fields: [] as string[], aspects: [] as string[], top: false };
  for (const param of params) {
    let at: string | undefined = param.startsWith('data.') ? param : undefined;
    while (at !== undefined && !shown.has(at)) at = parentOf(at);
    if (at !== undefined) {
      if (!out.fields.includes(at)) out.fields.push(at);
    } else if (param.startsWith('data.') && ASPECTS.includes(aspectOf(param))) {
      if (!out.aspects.includes(aspectOf(param))) out.aspects.push(aspectOf(param));
    } else out.top = true;
  }
  return out;
}
