import * as z from 'zod';
import { CATEGORIES, type Category } from './enums.ts';
import { checkDigit, normalizeGtin } from './gtin.ts';
import { PRODUCT_GRANULARITIES, type ProductGranularity } from './import-columns.ts';
import type { Environment } from './tenant.ts';
import { plainText } from './text.ts';

export { CATEGORIES, PRODUCT_GRANULARITIES, type Category, type ProductGranularity };

/** A product as the domain knows it; the data layer maps it to and from items. */
export interface ProductRecord {
  productId: string;
  orgId: string;
  environment: Environment;
  gtin: string;
  name: string;
  category: Category;
  brand?: string;
  sku?: string;
  /** ESPR identifiers (docs/api.md#espr-identifiers). */
  economicOperatorId?: string;
  facilityId?: string;
  commodityCode?: string;
  /** What one passport covers; `model` when absent (products created before the field). */
  granularity?: ProductGranularity;
  qrCodeUrl: string;
  createdAt: string;
  updatedAt: string;
  /** Version of the newest passport; 0 before the first is published. */
  passportVersion: number;
  /** The newest version's digest: the next version's `previousDigest` (docs/lifecycle.md#digest-chain). */
  passportDigest?: string;
  /** `withdrawn` from withdrawal until reinstatement; `active` when absent (docs/lifecycle.md#withdrawal). */
  status?: ProductStatus;
  withdrawnAt?: string;
  withdrawalReason?: string;
  /** The product has a draft (docs/lifecycle.md#drafts); kept by the draft's own writes, so a listing needs no read of the drafts. */
  hasDraft?: boolean;
  /** The organizations the product was transferred from, oldest first (docs/transfers.md): their GTIN items point to this owner. */
  formerOwners?: string[];
}

export const PRODUCT_STATUSES = ['active', 'withdrawn'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Something other than white space: what trimming to at least one character means, as a pattern. */
export const NOT_BLANK = /\S/;

/** One required line of text, trimmed: no control characters, bidi overrides or noncharacters (lib/domain/text.ts). */
export const requiredLine = (field: string, max: number) =>
  plainText(
    z
      .string({ error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
      .trim()
      .min(1, { error: `${field} must not be empty.` })
      .max(max, { error: `${field} must be at most ${max} characters.` })
      .regex(NOT_BLANK, { error: `${field} must not be empty.` }),
    field,
  );

const category = z.enum(CATEGORIES, {
  error: (issue) =>
    issue.input === undefined ? 'category is required.' : `category must be one of: ${CATEGORIES.join(', ')}.`,
});

/** The digit counts of a GTIN (8, 12, 13 or 14), as the OpenAPI document states them. */
export const GTIN_DIGITS_PATTERN = /^(?:\d{8}|\d{12}|\d{13}|\d{14})$/;

/**
 * GTIN-8/12/13/14 with a valid check digit, normalized to GTIN-14. No pattern can state the check
 * digit, so the document gives the digit counts as `pattern` and the check digit in its
 * description and in `x-check-digit` (the GS1 mod-10 rule of lib/domain/gtin.ts).
 */
export const gtinSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'gtin is required.' : 'gtin must be a string of digits.') })
  .meta({
    description: 'GTIN-8, -12, -13 or -14: 8, 12, 13 or 14 digits whose last digit is the GS1 mod-10 check digit (surrounding spaces are ignored)',
    pattern: GTIN_DIGITS_PATTERN.source,
    'x-check-digit': 'GS1 mod-10',
  })
  .transform((value, ctx) => {
    const result = normalizeGtin(value.trim());
    if (result.ok) return result.gtin14;
    ctx.addIssue({
      code: 'custom',
      message: `gtin is not a valid GTIN: ${result.reason}`,
      params: { suggestion: 'Send the 8, 12, 13 or 14 digits printed under the barcode, check digit included.' },
    });
    return z.NEVER;
  });

/**
 * Economic operator identifier, such as an EORI number. EORI numbers are a two-letter country
 * prefix and a national part of up to 15 letters or digits (17 characters at most), whose form
 * differs by member state; the rule here is that common shape only, in upper case, so any issued
 * EORI passes (docs/api.md#espr-identifiers).
 */
export const ECONOMIC_OPERATOR_ID_PATTERN = /^[A-Z]{2}[A-Z0-9]{1,15}$/;
/** A GLN (Global Location Number): 13 digits, the last the GS1 mod-10 check digit. */
export const GLN_PATTERN = /^\d{13}$/;
/** A CN (8 digits) or HS (6 digits) code, or a national tariff code of up to 10 digits. */
export const COMMODITY_CODE_PATTERN = /^\d{6,10}$/;

const identifier = (field: string, pattern: RegExp, rule: string, description: string) =>
  z
    .string({ error: `${field} must be a string.` })
    .trim()
    .regex(pattern, { error: `${field} must be ${rule}.` })
    .meta({ description, pattern: pattern.source });

export const economicOperatorIdSchema = identifier(
  'economicOperatorId',
  ECONOMIC_OPERATOR_ID_PATTERN,
  'two upper-case letters (the country) and up to 15 upper-case letters or digits, such as an EORI number DE123456789012345',
  'Economic operator identifier, such as an EORI number: a two-letter country prefix and up to 15 upper-case letters or digits',
);

export const facilityIdSchema = identifier(
  'facilityId',
  GLN_PATTERN,
  'a GLN of 13 digits',
  'Facility identifier: a GLN, 13 digits whose last digit is the GS1 mod-10 check digit',
)
  .refine((gln) => checkDigit(gln.slice(0, -1)) === Number(gln.at(-1)), {
    error: 'facilityId is not a valid GLN: the check digit is wrong.',
  })
  .meta({ 'x-check-digit': 'GS1 mod-10' });

export const commodityCodeSchema = identifier(
  'commodityCode',
  COMMODITY_CODE_PATTERN,
  'a CN or HS code of 6 to 10 digits',
  'CN or HS commodity code: 6 to 10 digits, without dots or spaces',
);

export const granularitySchema = z
  .enum(PRODUCT_GRANULARITIES, { error: `granularity must be one of: ${PRODUCT_GRANULARITIES.join(', ')}.` })
  .meta({ description: 'What one passport covers: the model (the default), a batch or an item' });

export const createProductSchema = z.strictObject({
  name: requiredLine('name', 200),
  category,
  gtin: gtinSchema,
  brand: requiredLine('brand', 100).optional(),
  sku: requiredLine('sku', 64).optional(),
  economicOperatorId: economicOperatorIdSchema.optional(),
  facilityId: facilityIdSchema.optional(),
  commodityCode: commodityCodeSchema.optional(),
  granularity: granularitySchema.optional(),
});
export type CreateProductInput = z.infer<typeof createProductSchema>;

export const updateProductSchema = z.strictObject({
  name: requiredLine('name', 200).optional(),
  category: category.optional(),
  brand: requiredLine('brand', 100).optional(),
  sku: requiredLine('sku', 64).nullable().optional(),
  economicOperatorId: economicOperatorIdSchema.nullable().optional(),
  facilityId: facilityIdSchema.nullable().optional(),
  commodityCode: commodityCodeSchema.nullable().optional(),
  granularity: granularitySchema.optional(),
});
export type UpdateProductInput = z.infer<typeof updateProductSchema>;

/** The product after a partial update: `null` removes a field, `undefined` leaves it (what updateProduct stores). */
export function applyProductChanges(product: ProductRecord, changes: UpdateProductInput, now: string): ProductRecord {
  const updated: Record<string, unknown> = { ...product, updatedAt: now };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete updated[field];
    else if (value !== undefined) updated[field] = value;
  }
  return updated as unknown as ProductRecord;
}

/** Why a withdrawal happened, as the caller says it (docs/lifecycle.md#withdrawal). */
export const withdrawProductSchema = z.strictObject({ reason: requiredLine('reason', 500) });

/** Fields a PATCH may never carry, with the reason given to the caller. */
export const IMMUTABLE_PRODUCT_FIELDS: Readonly<Record<string, string>> = {
  gtin: 'gtin cannot be modified: it is printed in the QR code. Create a new product for a new GTIN.',
  productId: 'productId cannot be modified.',
  internalId: 'internalId cannot be modified.',
  qrCodeUrl: 'qrCodeUrl cannot be modified: it is printed on packaging and never changes.',
};

const limit = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'limit must be an integer.' })
    .int({ error: 'limit must be an integer.' })
    .min(1, { error: 'limit must be at least 1.' })
    .max(max, { error: `limit must be at most ${max}.` })
    .default(fallback);

export const MAX_OFFSET = 10_000;

export const listProductsQuerySchema = z.strictObject({
  limit: z.string().optional(),
  offset: z.string().optional(),
  starting_after: z.string().optional(),
  q: z.string().optional(),
});

/** `q` of `GET /v1/products`: a name substring (any letter case) or a GTIN prefix. */
export const productSearchSchema = z
  .string()
  .trim()
  .min(1, { error: 'q must not be empty: leave it out to list every product.' })
  .max(100, { error: 'q must be at most 100 characters.' })
  .regex(NOT_BLANK, { error: 'q must not be empty: leave it out to list every product.' });

/**
 * Whether a product matches a search: its name contains `q` in any letter case, or, when `q` is
 * digits, its GTIN starts with `q` in any of the lengths it is printed in (GTIN-14, -13, -12, -8).
 */
export function productMatches(product: Pick<ProductRecord, 'name' | 'gtin'>, q: string): boolean {
  const query = q.trim().toLowerCase();
  if (query === '') return true;
  if (product.name.toLowerCase().includes(query)) return true;
  if (!/^\d+$/.test(query)) return false;
  return [14, 13, 12, 8].some((length) => {
    const printed = product.gtin.slice(14 - length);
    return product.gtin.slice(0, 14 - length).split('').every((d) => d === '0') && printed.startsWith(query);
  });
}

export const offsetPageSchema = z.strictObject({
  limit: limit(100, 20),
  offset: z.coerce
    .number({ error: 'offset must be an integer.' })
    .int({ error: 'offset must be an integer.' })
    .min(0, { error: 'offset must be 0 or more.' })
    .max(MAX_OFFSET, { error: `offset must be at most ${MAX_OFFSET}; use starting_after to page further.` })
    .default(0),
});

export const cursorPageSchema = z.strictObject({
  limit: limit(100, 25),
  starting_after: z.uuid({ error: 'starting_after must be the productId (a UUID) of the last item of the previous page.' }),
});

/** `GET /v1/products/{id}/qr`: the image's size in pixels and its quiet zone in modules. */
export const qrQuerySchema = z.strictObject({
  size: z.coerce
    .number({ error: 'size must be an integer number of pixels.' })
    .int({ error: 'size must be an integer number of pixels.' })
    .min(64, { error: 'size must be at least 64.' })
    .max(2048, { error: 'size must be at most 2048.' })
    .default(256),
  margin: z.coerce
    .number({ error: 'margin must be an integer number of modules.' })
    .int({ error: 'margin must be an integer number of modules.' })
    .min(0, { error: 'margin must be 0 or more.' })
    .max(16, { error: 'margin must be at most 16.' })
    .default(4),
});

/** Where a product's passport stands, as a listing shows it (docs/dashboard.md#passport-status). */
export const PASSPORT_STATUSES = ['none', 'draft', 'published', 'withdrawn'] as const;
export type PassportStatus = (typeof PASSPORT_STATUSES)[number];

export const productPassportSchema = z
  .object({
    status: z
      .enum(PASSPORT_STATUSES)
      .describe(
        '`none`: no version published and no draft (its Digital Link finds no passport); `draft`: a draft, no version published yet; `published`: `version` is current; `withdrawn`: the product is withdrawn (its Digital Link answers 410)',
      ),
    version: z.int().min(1).nullable().describe('The newest published version; null before the first'),
    draft: z.boolean().describe('A draft waits to be published (also beside a published version)'),
  })
  .meta({ id: 'ProductPassportStatus' });
export type ProductPassport = z.infer<typeof productPassportSchema>;

/** A product's passport status from the product alone (no read of its versions or draft). */
export function passportStatusOf(product: Pick<ProductRecord, 'passportVersion' | 'status' | 'hasDraft'>): ProductPassport {
  const version = product.passportVersion > 0 ? product.passportVersion : null;
  const draft = product.hasDraft === true;
  const status: PassportStatus = product.status === 'withdrawn' ? 'withdrawn' : version !== null ? 'published' : draft ? 'draft' : 'none';
  return { status, version, draft };
}

export const productLinkSchema = z.object({ href: z.string(), rel: z.string(), type: z.string() });
export type ProductLink = z.infer<typeof productLinkSchema>;

/** The product's read form (docs/api.md#endpoints), with `productId`, `environment` and `qrCodeUrl`. */
export const productSchema = z
  .object({
    productId: z.uuid(),
    internalId: z.uuid(),
    tenantId: z.string().describe('The owning organization'),
    environment: z.enum(['live', 'test']),
    gtin: z.string().regex(/^\d{14}$/).describe('GTIN-14'),
    name: z.string(),
    category: z.enum(CATEGORIES),
    brand: z.string().nullable(),
    sku: z.string().nullable(),
    economicOperatorId: z.string().nullable().describe('Economic operator identifier, such as an EORI number'),
    facilityId: z.string().nullable().describe('Facility identifier (GLN)'),
    commodityCode: z.string().nullable().describe('CN or HS commodity code'),
    granularity: z.enum(PRODUCT_GRANULARITIES).describe('What one passport covers'),
    qrCodeUrl: z.url().describe('GS1 Digital Link URI printed in the QR code; never changes'),
    links: z.array(productLinkSchema),
    status: z.enum(PRODUCT_STATUSES).describe('`withdrawn`: its Digital Link answers 410 until it is reinstated'),
    withdrawnAt: z.iso.datetime().nullable(),
    withdrawalReason: z.string().nullable(),
    passport: productPassportSchema.describe("Where the product's passport stands: none, draft, published (with its version) or withdrawn"),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Product' });
export type Product = z.infer<typeof productSchema>;

export const createdProductSchema = z
  .object({ productId: z.uuid(), qrCodeUrl: z.url(), createdAt: z.iso.datetime() })
  .meta({ id: 'CreatedProduct' });

export const productListSchema = z
  .object({
    data: z.array(productSchema),
    products: z.array(productSchema).optional().describe('The same array as data (offset form only)'),
    pagination: z.object({ total: z.int(), limit: z.int(), offset: z.int() }).optional().describe('Offset form only'),
    hasMore: z.boolean(),
  })
  .meta({ id: 'ProductList' });
export type ProductList = z.infer<typeof productListSchema>;

export function toProductView(product: ProductRecord): Product {
  return {
    productId: product.productId,
    internalId: product.productId,
    tenantId: product.orgId,
    environment: product.environment,
    gtin: product.gtin,
    name: product.name,
    category: product.category,
    brand: product.brand ?? null,
    sku: product.sku ?? null,
    economicOperatorId: product.economicOperatorId ?? null,
    facilityId: product.facilityId ?? null,
    commodityCode: product.commodityCode ?? null,
    granularity: product.granularity ?? 'model',
    qrCodeUrl: product.qrCodeUrl,
    links: [
      { href: product.qrCodeUrl, rel: 'gs1:pip', type: 'text/html' },
      { href: `${product.qrCodeUrl}?linkType=linkset`, rel: 'linkset', type: 'application/linkset+json' },
    ],
    status: product.status ?? 'active',
    withdrawnAt: product.withdrawnAt ?? null,
    withdrawalReason: product.withdrawalReason ?? null,
    passport: passportStatusOf(product),
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
  };
}
