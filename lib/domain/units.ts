import * as z from 'zod';
import { unitConversionsSchema } from './battery/unit-conversions.ts';
import { unitConversionsMember } from './battery/units-migration.ts';
import { EXPORT_FORMATS } from './export.ts';
import { cursorLimit } from './pagination.ts';
import { ALL_UNIT_STATUSES, anyUnitDataSchema } from './unit-data.ts';
import { unitBackupUrl } from './backup.ts';
import { dppIdOf } from './dpp-id.ts';
import type { Tenant } from './tenant.ts';
import { isUnitValue, unitDigitalLink, unitValue, UNIT_PARAM, UNIT_VALUE_MAX_LENGTH, UNIT_VALUE_PATTERN, type UnitKind, type UnitRecord } from './unit.ts';
import { plainText } from './text.ts';

/**
 * The API's schemas of batches and items (docs/api.md#batches-and-items): the bodies of PUT and
 * PATCH, the read form, the list and the query strings. The data a record holds is checked against
 * its product's category afterwards (lib/domain/unit-data.ts).
 */

const GS1_RULE = `1 to ${UNIT_VALUE_MAX_LENGTH} characters of GS1 character set 82 (letters, digits and ! " % & ' ( ) * + , - . / : ; < = > ? _)`;

/** A lot (AI 10) or serial (AI 21) as a path segment or a field: 422 naming `param` otherwise. */
export const unitValueSchema = (param: 'lot' | 'serial') =>
  z
    .string({ error: `${param} must be a string.` })
    .refine(isUnitValue, { error: `${param} must be ${GS1_RULE}.` })
    .meta({ description: `${param === 'lot' ? 'Batch or lot number, GS1 AI 10' : 'Serial number, GS1 AI 21'}: ${GS1_RULE}`, pattern: UNIT_VALUE_PATTERN });

export const lotSchema = unitValueSchema('lot');
export const serialSchema = unitValueSchema('serial');

const status = plainText(z.string({ error: 'status must be a string.' }), 'status')
  .meta({
    enum: [...ALL_UNIT_STATUSES],
    description: `active (the default) or withdrawn (its Digital Link answers 410 Gone), or a status the product's category adds; default active`,
  });

/** `data` as a body carries it: an object, checked against the product's category afterwards (lib/domain/unit-data.ts). */
const data = z.record(z.string(), z.unknown(), { error: 'data must be an object.' });
const DATA_DESCRIPTION =
  "The record's own data, checked against its product's category (a 422 names the field): a wine lot's bottling date and analysis (WineUnitData); a battery's identifiers, dates, status and condition (BatteryItemData, an item's; docs/battery.md#model-and-item); an open object within bounds for the other categories (UnitData)";

/** `PUT …/batches/{lot}`: the whole record but its name (an absent status is active, absent data empty). */
export const putBatchSchema = z.strictObject({ status: status.optional(), data: data.optional() });
/** `PUT …/items/{serial}`: the same, and the item's lot when it names one. */
export const putItemSchema = z.strictObject({ lot: lotSchema.optional(), status: status.optional(), data: data.optional() });
export type UnitInput = { lot?: string; status?: string; data?: Record<string, unknown> };

/** The same bodies as the API reference states them: `data` by category. */
export const putBatchDocSchema = z.strictObject({ status: status.optional(), data: anyUnitDataSchema.optional().describe(DATA_DESCRIPTION) });
export const putItemDocSchema = z.strictObject({ lot: lotSchema.optional(), status: status.optional(), data: anyUnitDataSchema.optional().describe(DATA_DESCRIPTION) });

/** A merge patch's body as the reference shows it (RFC 7396: null removes a member). */
export const unitPatchDocSchema = (kind: UnitKind) =>
  z
    .object({
      ...(kind === 'item' ? { lot: lotSchema.nullable().optional() } : {}),
      status: status.optional(),
      data: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .describe(`A merge patch: {"status": "withdrawn"}, {"data": {"analysis": {"alcoholByVolume": 12.5}}}${kind === 'item' ? ', {"lot": null}' : ''}`);

/** Fields a PUT or PATCH may never carry, with the reason. */
export const IMMUTABLE_UNIT_FIELDS: Readonly<Record<string, string>> = {
  serial: 'serial cannot be changed: it is the path. Register the item under its new serial instead.',
  productId: 'productId cannot be changed.',
  gtin: 'gtin cannot be changed: it is the product\'s.',
  version: 'version is counted by the service: every change is the next version.',
  digest: 'digest is computed by the service.',
  previousDigest: 'previousDigest is computed by the service.',
  createdAt: 'createdAt is set by the service.',
  updatedAt: 'updatedAt is set by the service.',
  digitalLink: 'digitalLink follows from the product and the serial or lot.',
  updatedBy: 'updatedBy is set by the service.',
  lineage: 'lineage is written by a handover (POST /v1/handovers, docs/battery.md#second-life), never by the item\'s owner alone.',
};

const common = {
  productId: z.uuid(),
  gtin: z.string().regex(/^\d{14}$/).describe("The product's GTIN-14"),
  status: z.string().meta({ enum: [...ALL_UNIT_STATUSES] }),
  data: z.record(z.string(), z.unknown()).describe("The record's own data (WineUnitData for a wine, UnitData otherwise)"),
  version: z.int().min(1).describe('1, 2, …: every change is the next version (readable with ?at=)'),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/).describe('sha256 of the JCS form of this version (docs/api.md#digests-of-batches-and-items)'),
  previousDigest: z.string().regex(/^sha256:[0-9a-f]{64}$/).nullable().describe("The previous version's digest; null for version 1"),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime().describe('When this version was made'),
  unitConversions: unitConversionsSchema.optional(),
  digitalLink: z.url().describe("The record's GS1 Digital Link: the product's qrCodeUrl with /10/{lot} or /21/{serial}; print it in the record's QR code"),
  dppId: z.string().optional().describe('The id the EN 18222 reads name this record\'s passport by (GET /v1/dpps/{dppId}; docs/access.md#reads)'),
  backupUrl: z
    .url()
    .optional()
    .describe("Where this version's public read form is served from the backup copy, also when the service is down (docs/backup.md#the-public-copy); absent where the service keeps no backup"),
};

export const batchSchema = z
  .object({ object: z.literal('batch'), lot: z.string(), ...common })
  .meta({ id: 'Batch', description: 'A batch (lot) of a product, with its own data and versions' });
export type Batch = z.infer<typeof batchSchema>;

const lineageLinkSchema = z
  .object({
    digitalLink: z.url().describe("The other item's GS1 Digital Link"),
    operation: z.string().describe('repurposing, remanufacturing, preparation_for_reuse or preparation_for_repurposing'),
    handoverId: z.string(),
    at: z.iso.datetime().describe('When the handover was accepted'),
  })
  .meta({ id: 'LineageLink' });

/** A waste handover's mark on the battery: the organization, the handover, when (docs/battery.md#a-batterys-life). */
const lineageMarkSchema = z.object({ orgId: z.string(), handoverId: z.string(), at: z.iso.datetime() }).meta({ id: 'LineageMark' });

/** An item's second-life links (docs/battery.md#second-life). */
export const lineageSchema = z
  .object({
    predecessor: z
      .union([z.array(lineageLinkSchema), lineageLinkSchema])
      .optional()
      .describe('The items this one was made from, a list (a pack may be made of several originals); versions written before lists hold one link object, read as a list of one (docs/battery.md#second-life)'),
    successors: z.array(lineageLinkSchema).optional().describe('The items this one became'),
    responsible: lineageMarkSchema.optional().describe('Since a waste handover: the organization responsible for the passport (Regulation (EU) 2023/1542 Art. 77(7), second subparagraph)'),
    recycled: lineageMarkSchema.optional().describe('The battery was recycled and its passport ceased (Art. 77(8)): who declared it, when'),
  })
  .meta({ id: 'Lineage', description: 'Links written by an accepted handover between two organizations; absent when the item has none' });

/** What the public reads of a lineage (lib/domain/unit.ts publicLineage): the other passports' links only, never what tells the status. */
const publicLinkSchema = z.object({ digitalLink: z.url().describe("The other item's GS1 Digital Link") }).meta({ id: 'PublicLineageLink' });
export const publicLineageSchema = z
  .object({
    predecessor: z.array(publicLinkSchema).optional().describe('The passports of the batteries this one was made from'),
    successors: z.array(publicLinkSchema).optional().describe('The passports of the batteries this one became'),
  })
  .meta({
    id: 'PublicLineage',
    description: 'A battery\'s second-life links as the public reads them: the operation, the handover and the marks of a waste handover or a recycling tell its status (Annex XIII 4(c)), which is not public (docs/battery.md#the-public-page-json-and-links)',
  });

export const itemSchema = z
  .object({
    object: z.literal('item'),
    serial: z.string(),
    lot: z.string().nullable().describe('The lot the item belongs to, if it names one'),
    ...common,
    lineage: lineageSchema.optional(),
    updatedBy: z.string().optional().describe('The organization that wrote this version, when another than the owner did (a grantee with write access; docs/access.md#grants)'),
  })
  .meta({ id: 'Item', description: 'A serialised item of a product, with its own data and versions' });
export type Item = z.infer<typeof itemSchema>;

export const batchListSchema = z.object({ data: z.array(batchSchema), hasMore: z.boolean() }).meta({ id: 'BatchList' });
export const itemListSchema = z.object({ data: z.array(itemSchema), hasMore: z.boolean() }).meta({ id: 'ItemList' });

/**
 * The read form of a stored record: its Digital Link from the product's qrCodeUrl; its DPP id when
 * the tenant is given, and its `backupUrl` when the public copy's origin is given too
 * (docs/backup.md#the-public-copy).
 */
export function toUnitView(unit: UnitRecord, qrCodeUrl: string, tenant?: Tenant, backupOrigin?: string): Batch | Item {
  const dpp = tenant
    ? {
        dppId: dppIdOf({ tenant, gtin14: unit.gtin, unit: { kind: unit.kind, value: unitValue(unit) } }),
        ...(backupOrigin ? { backupUrl: unitBackupUrl(backupOrigin, tenant, unit.gtin, unit.kind, unitValue(unit), unit.version) } : {}),
      }
    : {};
  const base = {
    productId: unit.productId,
    gtin: unit.gtin,
    status: unit.status,
    data: unit.data,
    version: unit.version,
    digest: unit.digest,
    previousDigest: unit.previousDigest,
    createdAt: unit.createdAt,
    updatedAt: unit.updatedAt,
    // A battery's version stored in older units names its stored values (docs/battery.md#units).
    ...unitConversionsMember(unit),
  };
  if (unit.kind === 'batch') {
    const lot = unit.lot ?? '';
    return { object: 'batch', lot, ...base, digitalLink: unitDigitalLink(qrCodeUrl, 'batch', lot), ...dpp };
  }
  const serial = unit.serial ?? '';
  return {
    object: 'item',
    serial,
    lot: unit.lot ?? null,
    ...base,
    digitalLink: unitDigitalLink(qrCodeUrl, 'item', serial),
    ...dpp,
    ...(unit.lineage === undefined ? {} : { lineage: unit.lineage }),
    ...(unit.updatedBy === undefined ? {} : { updatedBy: unit.updatedBy }),
  };
}

/** `GET …/batches/{lot}` and `…/items/{serial}`: `at`, the version current at that instant. */
export const unitAtQuerySchema = z.strictObject({
  at: z.iso
    .datetime({ offset: true, error: 'at must be an ISO 8601 instant such as 2026-11-23T10:00:00Z.' })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: 'at must be an ISO 8601 instant such as 2026-11-23T10:00:00Z.' })
    .optional()
    .describe('An ISO 8601 instant: the version that was current then (404, param at, before version 1)'),
});

/**
 * The lists' cursor (the lot or serial of the previous page's last record) and filters: a lot or
 * serial prefix, a status, and an item's lot (docs/api.md#batches-and-items).
 */
export const unitListQuerySchema = (kind: UnitKind) => {
  const param = UNIT_PARAM[kind];
  return z.strictObject({
    limit: cursorLimit.describe('Page size, 1 to 100; default 25'),
    starting_after: unitValueSchema(param)
      .optional()
      .describe(`Cursor: the ${param} of the last record of the previous page (the list is in ${param} order)`),
    prefix: z
      .string({ error: 'prefix must be a string.' })
      .refine(isUnitValue, { error: `prefix must be ${GS1_RULE}.` })
      .meta({ pattern: UNIT_VALUE_PATTERN })
      .optional()
      .describe(`Only the ${kind === 'batch' ? 'batches' : 'items'} whose ${param} starts with this (case-sensitive): ${GS1_RULE}`),
    status: z
      .enum(ALL_UNIT_STATUSES, { error: `status must be one of: ${ALL_UNIT_STATUSES.join(', ')}.` })
      .optional()
      .describe(`Only the ${kind === 'batch' ? 'batches' : 'items'} of this status (a filter of what is read: a rare status among many reads them all)`),
    ...(kind === 'item' ? { lot: lotSchema.optional().describe('Only the items that name this lot (a filter of what is read, as status)') } : {}),
  });
};

/** The most rows one page of the items export holds. */
export const MAX_ITEM_EXPORT_ROWS = 1_000;

/** `GET /v1/exports/items`: the product, the format, the page size and the cursor (a serial). */
export const itemExportQuerySchema = z.strictObject({
  productId: z
    .uuid({ error: 'productId must be the productId (a UUID) of a product of the organization.' })
    .meta({ description: 'The product whose items are listed (404 for an unknown product)', 'x-refers-to': 'productId' }),
  format: z
    .enum(EXPORT_FORMATS, { error: `format must be one of: ${EXPORT_FORMATS.join(', ')}.` })
    .default('csv')
    .describe('csv (header row first: serial, lot, status, digitalLink, then data.* columns) or ndjson; default csv'),
  limit: z.coerce
    .number({ error: 'limit must be an integer.' })
    .int({ error: 'limit must be an integer.' })
    .min(1, { error: 'limit must be at least 1.' })
    .max(MAX_ITEM_EXPORT_ROWS, { error: `limit must be at most ${MAX_ITEM_EXPORT_ROWS}.` })
    .default(MAX_ITEM_EXPORT_ROWS)
    .describe(`Rows a page, 1 to ${MAX_ITEM_EXPORT_ROWS}; default ${MAX_ITEM_EXPORT_ROWS}`),
  starting_after: serialSchema.optional().describe('Cursor: the serial of the last row of the previous page (the Link header gives the next page\'s URL)'),
});

export { anyUnitDataSchema };
