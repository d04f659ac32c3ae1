import * as z from 'zod';
import { countrySchema } from './country-schema.ts';
import { ALLERGEN_FIELDS, NUTRITION_FIELDS, PROTECTIVE_ATMOSPHERES, SUPPLIER_ROLES, WINE_COLOURS, type AllergenField, type NutritionField, type SupplierRole } from './enums.ts';
import { DIGEST_PATTERN } from './digest-pattern.ts';
import { UUID_PATTERN } from './ids.ts';
import { LANGUAGES, type Lang } from './labelling/languages.ts';
import { INGREDIENT_CODES, MAX_SUBSTITUTABLE_RUN, SUBSTITUTABLE_CODES } from './labelling/codes.ts';
import { CATEGORIES, NOT_BLANK, requiredLine, type Category } from './product.ts';
import { NEGLIGIBLE_NUTRIENTS, NEGLIGIBLE_THRESHOLDS } from './nutrition.ts';
import { batteryPassportDataSchema, type BatteryPassportData } from './battery/index.ts';
import { publicationRegistrySchema } from './registry/publish-check.ts';
import { unitConversionsSchema } from './battery/unit-conversions.ts';
import { completenessReportSchema } from './passport-completeness.ts';
import { plainText } from './text.ts';
import { BATTERY_DATA_MEMBERS, passportKindOf, type PassportKind } from './passport-kinds.ts';
import { isWine } from './wine.ts';

/** Supplier roles (`producer` the default: docs/decisions.md#smaller-choices), colours, nutrition and allergen fields. */
export { ALLERGEN_FIELDS, NUTRITION_FIELDS, SUPPLIER_ROLES, WINE_COLOURS, type SupplierRole };

/**
 * Smallest non-zero amount: nothing on a label is finer, and DynamoDB cannot store numbers under
 * 1e-130 (JSON allows down to 5e-324, which used to fail the write with a 500).
 */
const MIN_NON_ZERO_AMOUNT = 1e-6;

const amount = (field: string) =>
  z
    .number({ error: `${field} must be a number.` })
    .min(0, { error: `${field} must be 0 or more.` })
    .max(100_000, { error: `${field} is implausibly large.` })
    .refine((value) => value === 0 || value >= MIN_NON_ZERO_AMOUNT, { error: `${field} must be 0 or at least ${MIN_NON_ZERO_AMOUNT}.` })
    .meta({ anyOf: [{ const: 0 }, { minimum: MIN_NON_ZERO_AMOUNT }] });

/** One line of free text (lib/domain/text.ts): no control characters, bidi overrides or noncharacters. */
const shortText = (field: string, max = 200) => requiredLine(field, max);

/**
 * Nutrition per 100 ml (wine, drinks) or 100 g; every figure optional, none negative.
 * `energyCalculated: true` marks energy figures the service computed on publish
 * (docs/labelling.md#energy-and-rounding); they are computed again whenever the data is published.
 * `negligible` lists nutrients present in negligible amounts (Reg. (EU) No 1169/2011 Art. 34(5)):
 * the page replaces their rows by "Contains negligible amounts of …"; a listed nutrient given
 * with a value above its threshold (lib/domain/nutrition.ts NEGLIGIBLE_THRESHOLDS), or listed
 * twice, is refused by the service (lib/services/passports.ts checkNutrition), like the energy
 * disagreement: rules the document states in words, so the schema does not enforce them.
 * `alcoholG` feeds the energy calculator; the page does not show it (alcohol is not part of the
 * declaration: Art. 30(1), Annex XV).
 */
export const nutritionSchema = z
  .strictObject({
    ...(Object.fromEntries(NUTRITION_FIELDS.map((field) => [field, amount(field).optional()])) as Record<NutritionField, z.ZodOptional<ReturnType<typeof amount>>>),
    energyCalculated: z
      .boolean({ error: 'energyCalculated must be true or false.' })
      .optional()
      .describe('Set by the service: energyKj and energyKcal were computed from the nutrients (Regulation (EU) No 1169/2011 Annex XIV factors), not declared'),
    negligible: z
      .array(z.enum(NEGLIGIBLE_NUTRIENTS, { error: `negligible lists nutrients among: ${NEGLIGIBLE_NUTRIENTS.join(', ')}.` }), { error: 'negligible must be an array.' })
      .max(NEGLIGIBLE_NUTRIENTS.length, { error: `negligible lists at most ${NEGLIGIBLE_NUTRIENTS.length} nutrients.` })
      .optional()
      .describe(
        `Nutrients present in negligible amounts (Regulation (EU) No 1169/2011 Art. 34(5)), each at most once (a repeat is refused with a 422); the e-label shows "Contains negligible amounts of …" instead of their rows. Thresholds per 100 g or 100 ml: ${NEGLIGIBLE_NUTRIENTS.map((nutrient) => `${nutrient} ${NEGLIGIBLE_THRESHOLDS[nutrient]} g`).join(', ')}`,
      ),
  })
  .meta({
    // Rules across fields, which JSON Schema cannot state (docs/labelling.md#energy-and-rounding).
    description:
      'Nutrition per 100 ml or 100 g. A declared energyKj or energyKcal more than 20 % and more than 10 kJ away from what the nutrients give (Annex XIV factors) is refused with a 422 naming it; omit energy to have it computed. A nutrient listed in negligible whose value is above its threshold is refused with a 422 naming the value (e.g. data.nutrition.fatG). The value of a sub-row (saturatedFatG, sugarsG) needs its nutrient (fatG, carbohydratesG) given and not listed in negligible, unless the sub-row is listed in negligible too; else 422 naming the field of the sub-row. A wine (product category wine or productType wine) is published only with the full declaration of Regulation (EU) No 1169/2011 Art. 30(1): energy (energyKj or energyKcal, or computable from the nutrients), fatG, saturatedFatG, carbohydratesG, sugarsG, proteinG and saltG, each given or listed in negligible; else 422 naming the first missing field (data.nutrition when there is no nutrition). Drafts may be incomplete: a draft lists what is missing.',
  });
export type Nutrition = z.infer<typeof nutritionSchema>;

const flag = (field: string) => z.boolean({ error: `${field} must be true or false.` });

export const allergensSchema = z
  .strictObject(
    Object.fromEntries(ALLERGEN_FIELDS.map((field) => [field, flag(field).optional()])) as Record<AllergenField, z.ZodOptional<ReturnType<typeof flag>>>,
  )
  .meta({
    // A rule across fields and the product's category, which JSON Schema cannot state (lib/services/passports.ts).
    description:
      'The allergens the product contains. A wine (product category or productType "wine") that sets containsFish: true is refused with a 422 naming data.allergens.containsFish: fish gelatine or isinglass used as a fining agent in wine is exempt (Regulation (EU) No 1169/2011, Annex II point 4(b)). Allergens follow the ingredients: an ingredient of the vocabulary that carries an allergen (GET /v1/vocabulary/ingredients, its allergen field) needs that flag set to true, else publishing is refused with a 422 naming the flag (e.g. data.allergens.containsSulphites) and the ingredient (docs/labelling.md#allergens-follow-the-ingredients). A wine with a list of ingredients shows its allergens only in the list: a flag set to true needs an ingredient that carries it (a vocabulary entry with the allergen, or free text with its term), else 422 naming the flag; without a list the flags are the allergen statement ("Contains: …"). A free-text ingredient of a wine that names a sulphiting agent, an E number from E 220 to E 228, lysozyme or casein without the term of the allergen (sulphites, egg, milk: Regulation (EU) 2019/33 Art. 41(1), Annex I Part A) is refused with a 422 naming the ingredient (e.g. data.ingredients[1]); write "E 220 (sulphites)" or use the vocabulary code (docs/labelling.md#free-text-allergens).',
  });
export type Allergens = z.infer<typeof allergensSchema>;

export const originSchema = z.strictObject({
  country: countrySchema('country').optional(),
  region: shortText('region').optional(),
  designation: shortText('designation').optional(),
});

export const producerSchema = z.strictObject({
  name: shortText('name'),
  role: z.enum(SUPPLIER_ROLES, { error: `role must be one of: ${SUPPLIER_ROLES.join(', ')}.` }).default('producer'),
  country: countrySchema('country').optional(),
});

export const MIN_VINTAGE = 1800;
/** The latest vintage accepted: next year, so it moves every 1 January (UTC). */
export const maxVintage = (now: Date = new Date()): number => now.getUTCFullYear() + 1;

/**
 * The harvest year. Its upper bound moves with the calendar, so zod checks it at parse time and the
 * OpenAPI document (lib/api/openapi.ts) writes `maximum` from maxVintage() when it is generated.
 */
export const vintageSchema = z
  .number({ error: 'vintage must be a year.' })
  .int({ error: 'vintage must be a whole year.' })
  .min(MIN_VINTAGE, { error: `vintage must be ${MIN_VINTAGE} or later.` })
  .refine((year) => year <= maxVintage(), { error: 'vintage cannot be later than next year.' })
  .meta({
    description: `Harvest year: ${MIN_VINTAGE} to next year. The maximum moves every 1 January (UTC); this document states it as of when it was generated.`,
  });

/**
 * One ingredient (docs/api.md#passport-data): free text as before, an entry of the ingredient
 * vocabulary by its code (lib/domain/labelling/vocabulary.ts), or free text with its own
 * translations, keyed by language.
 */
export const ingredientCodeSchema = z
  .enum(INGREDIENT_CODES, {
    error: (issue) => (typeof issue.input === 'string' ? 'code is not in the ingredient vocabulary (GET /v1/vocabulary/ingredients).' : 'code must be a string.'),
  })
  .meta({ id: 'IngredientCode', description: 'The code of an entry of GET /v1/vocabulary/ingredients' });

/** Free text in one or more of the 24 languages, keyed by language code (at least one). */
export const ingredientTextSchema = z
  .strictObject(Object.fromEntries(LANGUAGES.map((lang) => [lang, shortText(`text.${lang}`).optional()])) as Record<Lang, z.ZodOptional<ReturnType<typeof shortText>>>, {
    error: 'text must be an object of texts by language code.',
  })
  .refine((texts) => Object.values(texts).some((value) => value !== undefined), { error: 'text must give the ingredient in at least one language.' })
  .meta({ id: 'IngredientText', description: 'Free text by language code; the e-label shows the page language, else English, else the first given', anyOf: LANGUAGES.map((lang) => ({ required: [lang] })) });

export const ingredientSchema = z.union([
  shortText('ingredient'),
  z
    .strictObject(
      {
        code: ingredientCodeSchema.optional(),
        text: ingredientTextSchema.optional(),
        substitutable: z
          .literal(true, { error: 'substitutable must be true or left out.' })
          .optional()
          .describe(
            'Wine only, with a code of the categories acidity regulator or stabilising agent: one of two or three similar or substitutable additives listed together, consecutive and of one category, shown as "contains … and/or …" (Reg. (EU) 2019/33 Art. 48a(5); docs/labelling.md#substitutable-additives). At least one of them must be in the wine',
          ),
      },
      { error: 'An ingredient is a string or an object.' },
    )
    .refine((item) => (item.code === undefined) !== (item.text === undefined), {
      error: 'An ingredient object takes either code or text, not both and not neither.',
    })
    .refine((item) => item.substitutable === undefined || item.code !== undefined, {
      error: 'substitutable applies to an ingredient given by its code, not to free text.',
      path: ['substitutable'],
    })
    .meta({
      oneOf: [
        { properties: { code: { $ref: '#/components/schemas/IngredientCode' } }, required: ['code'] },
        { properties: { text: { $ref: '#/components/schemas/IngredientText' } }, required: ['text'] },
      ],
    }),
]);
export type Ingredient = z.infer<typeof ingredientSchema>;

/**
 * What is wrong with the ingredients' `substitutable` marks (Reg. (EU) 2019/33 Art. 48a(5),
 * docs/labelling.md#substitutable-additives), or undefined: each mark on an acidity regulator or a
 * stabilising agent, in a run of two or three consecutive marked entries of one category.
 */
export function substitutableProblem(list: readonly Ingredient[]): { index: number; message: string } | undefined {
  const categoryAt = (index: number): string | undefined => {
    const item = list[index];
    if (typeof item !== 'object' || item.substitutable !== true || item.code === undefined) return undefined;
    return SUBSTITUTABLE_CODES[item.code] ?? 'other';
  };
  for (let index = 0; index < list.length; index++) {
    const category = categoryAt(index);
    if (category === undefined) continue;
    if (category === 'other')
      return { index, message: 'substitutable applies only to acidity regulators and stabilising agents (Regulation (EU) 2019/33 Art. 48a(5)).' };
    let end = index;
    while (end + 1 < list.length && categoryAt(end + 1) === category) end++;
    const length = end - index + 1;
    if (length < 2)
      return { index, message: 'substitutable marks two or three consecutive additives of one category, listed as "contains … and/or …"; this one stands alone.' };
    if (length > MAX_SUBSTITUTABLE_RUN)
      return { index: index + MAX_SUBSTITUTABLE_RUN, message: `"contains … and/or …" may list at most ${MAX_SUBSTITUTABLE_RUN} additives (Regulation (EU) 2019/33 Art. 48a(5)).` };
    index = end;
  }
  return undefined;
}

/** The phrases of Reg. (EU) 2019/33 Art. 48a(6) that may replace a wine's packaging gases in its list of ingredients. */
export { PROTECTIVE_ATMOSPHERES, type ProtectiveAtmosphere } from './enums.ts';

/**
 * Why a wine may not declare fish: its only fish-derived substances are fining agents (fish gelatine,
 * isinglass), which Reg. (EU) No 1169/2011 Annex II point 4(b) exempts from the allergens.
 */
export const WINE_FISH_MESSAGE =
  'A wine does not declare fish: fish gelatine or isinglass used as a fining agent in wine is exempt (Regulation (EU) No 1169/2011, Annex II point 4(b)); remove containsFish or set it to false.';

/**
 * True when a wine's data declares fish, which publishing refuses with a 422 naming
 * data.allergens.containsFish (lib/services/passports.ts). A rule across fields and the product's
 * category, so it is not in the schema (as the energy check): the OpenAPI document cannot state it.
 */
export const wineDeclaresFish = (data: Pick<PassportData, 'allergens'>, category?: string, productType?: string): boolean =>
  isWine(category, productType) && data.allergens?.containsFish === true;

/** The passport data object (docs/api.md#passport-data): known fields strictly typed, unknown fields rejected. */
export const passportDataSchema = z.strictObject(
  {
    productType: z.enum(CATEGORIES, { error: `productType must be one of: ${CATEGORIES.join(', ')}.` }).optional(),
    colour: z.enum(WINE_COLOURS, { error: `colour must be one of: ${WINE_COLOURS.join(', ')}.` }).optional(),
    vintage: vintageSchema.optional(),
    ingredients: z
      .array(ingredientSchema, { error: 'ingredients must be an array.' })
      .max(100, { error: 'ingredients may list at most 100 entries.' })
      .superRefine((list, ctx) => {
        const problem = substitutableProblem(list);
        if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.index, 'substitutable'], input: list });
      })
      .optional(),
    nutrition: nutritionSchema.optional(),
    alcoholByVolume: z
      .number({ error: 'alcoholByVolume must be a number.' })
      .min(0, { error: 'alcoholByVolume must be 0 or more.' })
      .max(100, { error: 'alcoholByVolume must be at most 100.' })
      .refine((value) => value === 0 || value >= 0.1, { error: 'alcoholByVolume must be 0 or at least 0.1.' })
      .meta({ anyOf: [{ const: 0 }, { minimum: 0.1 }] })
      .optional()
      // One decimal at most is checked by the service (checkNutrition) and stated in words: as
      // multipleOf 0.1, many JSON Schema validators would find 0.3 no multiple of 0.1.
      .describe(
        "Actual alcoholic strength by volume, % vol, at most one decimal place (Regulation (EU) No 1169/2011 Annex XII); a wine's (product category or productType wine) in whole or half units, e.g. 12 or 12.5 (Regulation (EU) 2019/33 Art. 44); otherwise 422 naming it. Shown on the e-label outside the nutrition declaration, e.g. 'alc 12,5 % vol'",
      ),
    allergens: allergensSchema.optional(),
    protectiveAtmosphere: z
      .enum(PROTECTIVE_ATMOSPHERES, { error: `protectiveAtmosphere must be one of: ${PROTECTIVE_ATMOSPHERES.join(', ')}.` })
      .optional()
      .describe(
        'Wine bottled in a protective atmosphere: "bottled" or "may-be-bottled". The e-label ends the list of ingredients with "Bottled in a protective atmosphere" or "Bottling may happen in a protective atmosphere" in place of the packaging gases, which it then omits (Reg. (EU) 2019/33 Art. 48a(6))',
      ),
    listNonAllergenicProcessingAids: z
      .boolean({ error: 'listNonAllergenicProcessingAids must be true or false.' })
      .optional()
      .describe(
        'Whether the e-label lists the processing aids among the ingredients that carry no allergen (isinglass). Left out or false: they are left out, as Regulation (EU) No 1169/2011 Art. 20 allows; processing aids that carry an allergen (egg albumin, milk casein, milk protein) are always listed, after the additives (docs/labelling.md#processing-aids)',
      ),
    origin: originSchema.optional(),
    producers: z.array(producerSchema, { error: 'producers must be an array.' }).max(20, { error: 'at most 20 producers.' }).optional(),
    labelLanguage: z
      .enum(LANGUAGES, { error: `labelLanguage must be one of: ${LANGUAGES.join(', ')}.` })
      .optional()
      .describe("The e-label's language when neither the URL nor Accept-Language chooses one (docs/resolver.md#the-page-language)"),
  },
  { error: (i) => (i.input === undefined ? 'data is required.' : 'data must be an object.') },
);
/** The wine and food passport data, which every category but battery takes. */
export type GeneralPassportData = z.infer<typeof passportDataSchema>;

/**
 * Passport data as it is stored and read: of one kind, the product's category choosing which
 * (lib/domain/passport-kinds.ts): the general data above, or a battery passport
 * (lib/domain/battery/, docs/battery.md). The type holds the members of both, all optional; which
 * kind a version has is the schema's business (passportDataSchemaFor).
 */
export type PassportData = GeneralPassportData & BatteryPassportData;

/** Each kind's data schema (lib/domain/passport-kinds.ts): a new kind adds its line. */
export const PASSPORT_DATA_SCHEMAS = { general: passportDataSchema, battery: batteryPassportDataSchema } as const satisfies Record<PassportKind, z.ZodType>;

/** The data schema of a product's passport, by its category. */
export const passportDataSchemaFor = (category: Category) => PASSPORT_DATA_SCHEMAS[passportKindOf(category)];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const holdsBatteryMember = (value: Record<string, unknown>): boolean => Object.keys(value).some((member) => BATTERY_DATA_MEMBERS.has(member));

/**
 * One kind's schema in the union below, which first refuses data of the other kind as of the wrong
 * type: the union's error then comes from the branch the data was meant for (lib/http/validation.ts
 * reports from the branch that got past its type check), not from the other kind's unknown members.
 */
const branchOf = <S extends z.ZodType>(schema: S, isOtherKind: (value: Record<string, unknown>) => boolean) =>
  z.preprocess((value, ctx) => {
    if (isObject(value) && isOtherKind(value)) ctx.addIssue({ code: 'invalid_type', expected: 'object', input: value, message: 'data is passport data of the other kind.' });
    return value;
  }, schema);

/**
 * Passport data of either kind, as the OpenAPI document states it (`anyOf`). A request's data is
 * validated against its product's kind (passportDataSchemaFor) once the product is known; this
 * union accepts either kind (and `{}`, which is both).
 */
export const anyPassportDataSchema: z.ZodType<PassportData> = z
  .union(
    [
      branchOf(passportDataSchema, holdsBatteryMember),
      branchOf(batteryPassportDataSchema, (value) => Object.keys(value).length > 0 && !holdsBatteryMember(value)),
    ],
    { error: (i) => (i.input === undefined ? 'data is required.' : 'data must be an object.') },
  )
  // A preprocessed branch takes undefined as input, which would make data optional in the document.
  .nonoptional({ error: 'data is required.' })
  .meta({
    description:
      'Passport data of the kind the product\'s category takes: a product of category battery holds a battery passport (BatteryPassportData: one member per aspect of the Battery Pass data model 1.2, generalProductInformation, carbonFootprint, …; docs/battery.md); every other category the wine and food data (productType, ingredients, nutrition, …; docs/api.md#passport-data). Data of the other kind is refused with a 422 whose param is data.',
  });

const GENERAL_DATA_MEMBERS: ReadonlySet<string> = new Set(Object.keys(passportDataSchema.shape));

/**
 * Why `data` is of the other kind than a product of `category` takes (a 422 naming `data`), or
 * undefined: battery aspects for a product that is no battery, or only wine and food members for a
 * battery. Data that is neither is left to the schema, which names its first unknown member.
 */
export function passportKindMismatch(category: Category, data: unknown): { message: string; suggestion: string } | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const members = Object.keys(data);
  const battery = members.some((member) => BATTERY_DATA_MEMBERS.has(member));
  if (passportKindOf(category) === 'general') {
    if (!battery) return undefined;
    return {
      message: `data is a battery passport, but the product's category is ${category}: only a product of category battery takes battery passport data.`,
      suggestion: "Send the passport data of the product's category (docs/api.md#passport-data), or make it a battery product (PATCH /v1/products/{productId} with category battery).",
    };
  }
  if (battery || !members.some((member) => GENERAL_DATA_MEMBERS.has(member))) return undefined;
  return {
    message: "data is wine or food passport data, but the product's category is battery: a battery's passport data has one member per aspect (generalProductInformation, carbonFootprint, …).",
    suggestion: 'Send the battery passport (docs/battery.md), or give the product the category its data is for.',
  };
}

const productIdField = z
  .string({ error: (i) => (i.input === undefined ? 'productId is required.' : 'productId must be a string.') })
  .regex(UUID_PATTERN, { error: 'productId must be a product id (a UUID).' });

/** `POST /v1/passports`: data of either kind; the product's category says which (passportDataSchemaFor). */
export const createPassportSchema = z.strictObject({ productId: productIdField, data: anyPassportDataSchema });

/** Any JSON object as passport data: what a request holds before its product's kind is known. */
export const passportDataObjectSchema = z.record(z.string(), z.unknown(), { error: (i) => (i.input === undefined ? 'data is required.' : 'data must be an object.') });

/** `POST /v1/passports` read before its product is known: the product id, and data that is an object (validated by kind after). */
export const createPassportEnvelopeSchema = z.strictObject({ productId: productIdField, data: passportDataObjectSchema });

export const PASSPORT_STATUSES = ['published'] as const;
export type PassportStatus = (typeof PASSPORT_STATUSES)[number];

/** One published version of a product's passport. */
export const passportVersionSchema = z
  .object({
    passportId: z.string(),
    productId: z.uuid(),
    version: z.int().min(1),
    status: z.enum(PASSPORT_STATUSES),
    data: anyPassportDataSchema,
    createdAt: z.iso.datetime().describe('The same instant as publishedAt'),
    publishedAt: z.iso.datetime(),
    digest: z.string().regex(DIGEST_PATTERN).describe('sha256: and the hex SHA-256 of the RFC 8785 form of {data, gtin, previousDigest, productId, publishedAt, version} (docs/lifecycle.md#digest-chain)'),
    previousDigest: z.string().regex(DIGEST_PATTERN).nullable().describe("The previous version's digest; null for version 1"),
    gtin: z.string().regex(/^\d{14}$/).describe("The product's GTIN-14 when this version was published"),
    unitConversions: unitConversionsSchema.optional(),
  })
  .meta({ id: 'PassportVersion' });
export type PassportVersion = z.infer<typeof passportVersionSchema>;

/** The passport's read form (docs/api.md#endpoints, `GET /v1/products/{productId}/passport`). */
export const passportSchema = z
  .object({
    productId: z.uuid(),
    passportId: z.string(),
    name: z.string().describe("The product's current name"),
    category: z.enum(CATEGORIES),
    gtin: z.string(),
    data: anyPassportDataSchema,
    qrCodeUrl: z.url(),
    status: z.enum(PASSPORT_STATUSES),
    version: z.int().min(1),
    lastUpdated: z.iso.datetime(),
    publishedAt: z.iso.datetime(),
    digest: z.string().regex(DIGEST_PATTERN),
    previousDigest: z.string().regex(DIGEST_PATTERN).nullable(),
    unitConversions: unitConversionsSchema.optional(),
    dppId: z.string().optional().describe('The id the EN 18222 reads name this passport by (GET /v1/dpps/{dppId}; docs/access.md#reads); in API reads'),
    backupUrl: z
      .url()
      .optional()
      .describe("Where this version's public read form is served from the backup copy, independently of the table and the API, also when they are down (docs/backup.md#the-public-copy); absent where the service keeps no backup"),
  })
  .meta({ id: 'Passport' });
export type Passport = z.infer<typeof passportSchema>;

export const createdPassportSchema = passportSchema
  .pick({ passportId: true, productId: true, version: true, status: true })
  .extend({
    createdAt: z.iso.datetime(),
    completeness: completenessReportSchema
      .optional()
      .describe('Battery passports: the completeness report of the version published, judged on the day publishing judged it (asOf, or by default the later of today and 18 February 2027; judgedOn says which); docs/battery.md#completeness-and-publishing'),
    registry: publicationRegistrySchema.optional(),
  })
  .meta({ id: 'CreatedPassport' });

