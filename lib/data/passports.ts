import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storedUnitFields } from '../domain/battery/units-migration.ts';
import type { LabelTermSetRef } from '../domain/labelling-term.ts';
import type { PassportVersion } from '../domain/passport.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, getItem, tableName } from './client.ts';
import { cancellationReasons } from './errors.ts';
import { itemBytes } from './item-size.ts';
import { gtinSk, passportIdSk, passportVersionPrefix, passportVersionSk, productSk, tenantPk, versionPageSk } from './keys.ts';
import { passportFromItem as fromItem, publicReads } from './public-reads.ts';
import { beginsWith, queryItems } from './query.ts';

/**
 * Passport versions. Keys (in the tenant's partition):
 * - `PASSPORT#{productId}#{version, 6 digits}`: one published version; a query lists them in order.
 * - `PASSPORTID#{passportId}`: finds a version by its id (for cursors).
 * - `PAGE#{gtin14}#{version, 6 digits}`: the version with the product's public fields as they were
 *   when it was published: what its immutable pages show (lib/domain/page-urls.ts), in one read.
 * Publishing also moves the product's `passportVersion` and the public view on its GTIN item.
 */
const pageFields = (product: Pick<ProductRecord, 'productId' | 'name' | 'category' | 'gtin' | 'qrCodeUrl'>) => ({
  productId: product.productId,
  name: product.name,
  category: product.category,
  gtin: product.gtin,
  qrCodeUrl: product.qrCodeUrl,
});

/** A version as stored, on its own item and as the copy on a GTIN or page item: with the units' marker when its data needs one (docs/battery.md#units). */
export const storedPassport = (passport: PassportVersion): PassportVersion & { dataUnits?: string } => ({ ...passport, ...storedUnitFields(passport) });

/**
 * The new items of a published version: the version, its passport id pointer and its page (each on
 * the condition that it is new). Publishing also moves the product's `passportVersion` and the GTIN
 * item's `passport`, which the caller's transaction does (insertPassportVersion; a bulk import's
 * product-creating transaction, lib/data/imports.ts).
 */
export function versionItems(
  tenant: Tenant,
  product: Pick<ProductRecord, 'productId' | 'name' | 'category' | 'gtin' | 'qrCodeUrl'>,
  passport: PassportVersion,
  /**
   * The digest of the organization's corrections of legal terms when the version is published: its
   * pages show that set, stored once per tenant (docs/labelling.md#correcting-a-term), never copied here;
   * and the languages its e-label offers when the organization offers only those signed off (docs/labelling.md#sign-off).
   */
  labelTermSet?: LabelTermSetRef,
): NonNullable<TransactWriteCommandInput['TransactItems']> {
  const pk = tenantPk(tenant);
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { PK: pk, SK: passportVersionSk(product.productId, passport.version), type: 'passport', ...storedPassport(passport) },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { PK: pk, SK: passportIdSk(passport.passportId), type: 'passportId', productId: product.productId, version: passport.version },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { PK: pk, SK: versionPageSk(product.gtin, passport.version), type: 'page', ...pageFields(product), passport: storedPassport(passport), ...labelTermSet },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
}

/**
 * The largest of a version's new items, by the item-size model (lib/data/item-size.ts): what
 * publishing compares with MAX_PUBLISHED_ITEM_BYTES before it writes, so that a version too large
 * for DynamoDB is a 422 naming `data`, never DynamoDB's ValidationException (a 500).
 */
export function largestVersionItemBytes(
  tenant: Tenant,
  product: Pick<ProductRecord, 'productId' | 'name' | 'category' | 'gtin' | 'qrCodeUrl'>,
  passport: PassportVersion,
  labelTermSet?: LabelTermSetRef,
): number {
  return Math.max(...versionItems(tenant, product, passport, labelTermSet).map((item) => (item.Put?.Item ? itemBytes(item.Put.Item) : 0)));
}

/**
 * Publishes `passport` as the product's next version in one transaction: it succeeds only while
 * the product's `passportVersion` is still `passport.version - 1`, so two concurrent publishers
 * can never take the same version. Returns 'conflict' when another version won the race.
 */
export async function insertPassportVersion(
  tenant: Tenant,
  product: ProductRecord,
  passport: PassportVersion,
  /** More items for the same transaction (webhook ingest: its replay ledger and watermark); their failed conditions are a 'conflict' too. */
  also: NonNullable<TransactWriteCommandInput['TransactItems']> = [],
  /** The digest of the organization's corrections of legal terms, named on the version's page item. */
  labelTermSet?: LabelTermSetRef,
  /** The version publishes the product's draft: its hasDraft mark is removed in the product's update. */
  clearsDraft = false,
): Promise<'created' | 'conflict'> {
  const pk = tenantPk(tenant);
  const previous = passport.version - 1;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: { PK: pk, SK: productSk(product.productId) },
              UpdateExpression: `SET passportVersion = :version, passportDigest = :digest${clearsDraft ? ' REMOVE hasDraft' : ''}`,
              ConditionExpression:
                previous === 0
                  ? 'attribute_exists(PK) AND (attribute_not_exists(passportVersion) OR passportVersion = :previous)'
                  : 'passportVersion = :previous',
              ExpressionAttributeValues: { ':version': passport.version, ':previous': previous, ':digest': passport.digest },
            },
          },
          ...versionItems(tenant, product, passport, labelTermSet),
          {
            Update: {
              TableName: tableName(),
              Key: { PK: pk, SK: gtinSk(product.gtin) },
              UpdateExpression: 'SET passport = :passport',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':passport': storedPassport(passport) },
            },
          },
          ...also,
        ],
      }),
    );
    return 'created';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict')) return 'conflict';
    throw error;
  }
}

/** The version a passport id names, if it is a passport of `productId`. */
export async function findPassportVersion(tenant: Tenant, productId: string, passportId: string): Promise<number | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: passportIdSk(passportId) } }));
  return Item && Item.productId === productId ? Number(Item.version) : undefined;
}

/** Versions newest first: `limit` of them below `beforeVersion` (or from the newest). */
export async function listPassportVersions(
  tenant: Tenant,
  productId: string,
  limit: number,
  beforeVersion?: number,
): Promise<{ passports: PassportVersion[]; hasMore: boolean }> {
  const pk = tenantPk(tenant);
  const page = await queryItems(
    { ...beginsWith(pk, passportVersionPrefix(productId)), ScanIndexForward: false },
    { limit, ...(beforeVersion === undefined ? {} : { startKey: { PK: pk, SK: passportVersionSk(productId, beforeVersion) } }) },
  );
  return { passports: page.items.map(fromItem), hasMore: page.hasMore };
}

export const { getPublicView, getVersionPage, getPassportVersion } = publicReads(getItem);

/**
 * The version that was current at `at` (epoch ms): the newest whose `publishedAt` is not after it.
 * Reads the versions newest first, a page at a time, stopping at the first one old enough.
 */
export async function getPassportVersionAt(tenant: Tenant, productId: string, at: number): Promise<PassportVersion | undefined> {
  const pk = tenantPk(tenant);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryItems({ ...beginsWith(pk, passportVersionPrefix(productId)), ScanIndexForward: false }, { limit: 25, ...(startKey ? { startKey } : {}) });
    for (const item of page.items) {
      const version = fromItem(item);
      if (Date.parse(version.publishedAt) <= at) return version;
    }
    const last = page.items.at(-1);
    startKey = page.hasMore && last ? { PK: pk, SK: last.SK } : undefined;
  } while (startKey);
  return undefined;
}

/** Every version of a product, oldest first (the chain check of `npm run admin -- passports verify`). */
export async function listAllPassportVersions(tenant: Tenant, productId: string): Promise<PassportVersion[]> {
  const page = await queryItems(beginsWith(tenantPk(tenant), passportVersionPrefix(productId)));
  return page.items.map(fromItem);
}
