/**
 * The API's enumerations as plain `as const` arrays, in a module that imports nothing: the zod
 * schemas build their enums from these, and the dashboard (which must not bundle zod) offers the
 * same values in its selects and forms (docs/architecture.md#layers).
 */

/** Product categories. */
export const CATEGORIES = ['wine', 'food', 'textile', 'electronics', 'battery'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Roles of an economic operator; `producer` when none is given. */
export const SUPPLIER_ROLES = ['producer', 'bottler', 'importer', 'distributor', 'manufacturer', 'recycler'] as const;
export type SupplierRole = (typeof SUPPLIER_ROLES)[number];

export const WINE_COLOURS = ['red', 'white', 'rose', 'orange'] as const;
export type WineColour = (typeof WINE_COLOURS)[number];

/** The nutrition fields of passport data (per 100 ml or 100 g), in label order. */
export const NUTRITION_FIELDS = ['energyKj', 'energyKcal', 'fatG', 'saturatedFatG', 'carbohydratesG', 'sugarsG', 'proteinG', 'saltG', 'alcoholG'] as const;
export type NutritionField = (typeof NUTRITION_FIELDS)[number];

/** The allergen flags of passport data. */
export const ALLERGEN_FIELDS = ['containsSulphites', 'containsEgg', 'containsFish', 'containsMilk'] as const;
export type AllergenField = (typeof ALLERGEN_FIELDS)[number];

/** Where a webhook endpoint's deliveries come from. */
export const SOURCES = ['headless-cms', 'custom'] as const;
export type Source = (typeof SOURCES)[number];

/**
 * How a delivery is signed: `hmac-body` (X-Webhook-Signature over the body alone, the default) or
 * `standard-webhooks` (webhook-id, webhook-timestamp and webhook-signature over id, timestamp and
 * body, within 5 minutes of the server's clock; docs/security.md).
 */
export const SIGNATURE_SCHEMES = ['hmac-body', 'standard-webhooks'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** Granularities of the scan analytics. */
export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** What `data.protectiveAtmosphere` may say (Reg. (EU) 2019/33 Art. 48a(6); docs/labelling.md#protective-atmosphere). */
export const PROTECTIVE_ATMOSPHERES = ['bottled', 'may-be-bottled'] as const;
export type ProtectiveAtmosphere = (typeof PROTECTIVE_ATMOSPHERES)[number];
