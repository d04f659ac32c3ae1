import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PassportVersion, PassportData } from '../domain/passport.ts';
import type { Category, ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons } from './errors.ts';
import { gtinSk, passportIdSk, passportVersionPrefix, passportVersionSk, productSk, tenantPk, versionPageSk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';

/**
 * Passport versions. Keys (in the tenant's partition):
 * - `PASSPORT#{productId}#{version, 6 digits}`: one published version; a query lists them in order.
 * - `PASSPORTID#{passportId}`: finds a version by its id (for cursors).
 * - `PAGE#{gtin14}#{version, 6 digits}`: the version with the product's public fields as they were
 *   when it was published: what its immutable pages show (lib/domain/page-urls.ts), in one read.
 * Publishing also moves the product's `passportVersion` and the public view on its GTIN item.
 */
function fromItem(item: Record<string, unknown>): PassportVersion {
  return {
    passportId: String(item.passportId),
    productId: String(item.productId),
    version: Number(item.version),
    status: 'published',
    data: (item.data ?? {}) as PassportData,
    createdAt: String(item.createdAt),
    publishedAt: String(item.publishedAt ?? item.createdAt),
    digest: String(item.digest ?? ''),
    previousDigest: typeof item.previousDigest === 'string' ? item.previousDigest : null,
    gtin: String(item.gtin ?? ''),
  };
}

/** What the resolver reads for a scan: the GTIN item's public view. */
export interface PublicView {
  productId: string;
  name: string;
  category: Category;
  gtin: string;
  qrCodeUrl: string;
  passport?: PassportVersion;
  /** The producer withdrew the product: its Digital Link answers 410 (docs/lifecycle.md#withdrawal). */
  withdrawn?: boolean;
}

const pageFields = (product: Pick<ProductRecord, 'productId' | 'name' | 'category' | 'gtin' | 'qrCodeUrl'>) => ({
  productId: product.productId,
  name: product.name,
  category: product.category,
  gtin: product.gtin,
  qrCodeUrl: product.qrCodeUrl,
});

function toPublicView(item: Record<string, unknown>): PublicView {
  return {
    productId: String(item.productId),
    name: String(item.name),
    category: item.category as Category,
    gtin: String(item.gtin),
    qrCodeUrl: String(item.qrCodeUrl),
    ...(item.passport ? { passport: fromItem(item.passport as Record<string, unknown>) } : {}),
    ...(item.withdrawn === true ? { withdrawn: true } : {}),
  };
}

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
): NonNullable<TransactWriteCommandInput['TransactItems']> {
  const pk = tenantPk(tenant);
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { PK: pk, SK: passportVersionSk(product.productId, passport.version), type: 'passport', ...passport },
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
        Item: { PK: pk, SK: versionPageSk(product.gtin, passport.version), type: 'page', ...pageFields(product), passport },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
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
              UpdateExpression: 'SET passportVersion = :version, passportDigest = :digest',
              ConditionExpression:
                previous === 0
                  ? 'attribute_exists(PK) AND (attribute_not_exists(passportVersion) OR passportVersion = :previous)'
                  : 'passportVersion = :previous',
              ExpressionAttributeValues: { ':version': passport.version, ':previous': previous, ':digest': passport.digest },
            },
          },
          ...versionItems(tenant, product, passport),
          {
            Update: {
              TableName: tableName(),
              Key: { PK: pk, SK: gtinSk(product.gtin) },
              UpdateExpression: 'SET passport = :passport',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':passport': passport },
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

export async function getPassportVersion(tenant: Tenant, productId: string, version: number): Promise<PassportVersion | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: passportVersionSk(productId, version) } }),
  );
  return Item ? fromItem(Item) : undefined;
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

/** The public view of a GTIN, in one read: the resolver's whole data access for a scan. */
export async function getPublicView(tenant: Tenant, gtin14: string): Promise<PublicView | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: gtinSk(gtin14) } }));
  return Item ? toPublicView(Item) : undefined;
}

/**
 * One published version of a GTIN with the product's public fields as they were when it was
 * published: what the version's immutable pages show. One GetItem; versions published before the
 * page items existed have none, and are read from the GTIN item (the current version, with the
 * current public fields) and, for an older version, its version item.
 */
export async function getVersionPage(tenant: Tenant, gtin14: string, version: number): Promise<(PublicView & { passport: PassportVersion }) | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: versionPageSk(gtin14, version) } }));
  if (Item) {
    const page = toPublicView(Item);
    return page.passport ? { ...page, passport: page.passport } : undefined;
  }
  const view = await getPublicView(tenant, gtin14);
  const current = view?.passport;
  if (!view || !current || version > current.version) return undefined;
  const passport = version === current.version ? current : await getPassportVersion(tenant, view.productId, version);
  return passport ? { ...view, passport } : undefined;
}

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
