import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Category, ProductGranularity, ProductRecord, UpdateProductInput } from '../domain/product.ts';
import type { Environment, Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { gtinSk, PRODUCT_PREFIX, productSk, tenantPk } from './keys.ts';
import { beginsWith } from './query.ts';
import { putNew, writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * Products. Keys (all in the tenant's partition):
 * - `PRODUCT#{productId}`: the product; product ids are UUID v7, so a query lists in creation order.
 * - `GTIN#{gtin14}`: the claim on a GTIN (its existence makes GTINs unique per tenant), which also
 *   holds the product's public view, current passport included, so the resolver answers a scan
 *   with one read. The passports module keeps its `passport` attribute current.
 */
type Item = Record<string, unknown>;

export function toItem(product: ProductRecord): Item {
  return { PK: tenantPk(product), SK: productSk(product.productId), type: 'product', ...product };
}

export function fromItem(item: Item): ProductRecord {
  return {
    productId: String(item.productId),
    orgId: String(item.orgId),
    environment: item.environment as Environment,
    gtin: String(item.gtin),
    name: String(item.name),
    category: item.category as Category,
    ...(typeof item.brand === 'string' ? { brand: item.brand } : {}),
    ...(typeof item.sku === 'string' ? { sku: item.sku } : {}),
    ...(typeof item.economicOperatorId === 'string' ? { economicOperatorId: item.economicOperatorId } : {}),
    ...(typeof item.facilityId === 'string' ? { facilityId: item.facilityId } : {}),
    ...(typeof item.commodityCode === 'string' ? { commodityCode: item.commodityCode } : {}),
    granularity: typeof item.granularity === 'string' ? (item.granularity as ProductGranularity) : 'model',
    qrCodeUrl: String(item.qrCodeUrl),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    passportVersion: typeof item.passportVersion === 'number' ? item.passportVersion : 0,
    ...(typeof item.passportDigest === 'string' ? { passportDigest: item.passportDigest } : {}),
    ...(item.status === 'withdrawn' ? { status: 'withdrawn' as const } : {}),
    ...(typeof item.withdrawnAt === 'string' ? { withdrawnAt: item.withdrawnAt } : {}),
    ...(typeof item.withdrawalReason === 'string' ? { withdrawalReason: item.withdrawalReason } : {}),
    ...(item.hasDraft === true ? { hasDraft: true } : {}),
    ...(Array.isArray(item.formerOwners) && item.formerOwners.length ? { formerOwners: item.formerOwners.map(String) } : {}),
  };
}

/**
 * The product's `hasDraft` mark, for the transaction that creates (true) or removes (false) its
 * draft, so that a listing shows the passport status without reading drafts (docs/lifecycle.md#drafts).
 */
export function draftMark(tenant: Tenant, productId: string, hasDraft: boolean): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: { PK: tenantPk(tenant), SK: productSk(productId) },
      UpdateExpression: hasDraft ? 'SET hasDraft = :true' : 'REMOVE hasDraft',
      ConditionExpression: 'attribute_exists(PK)',
      ...(hasDraft ? { ExpressionAttributeValues: { ':true': true } } : {}),
    },
  };
}

/**
 * The public fields the GTIN item repeats from its product; `granularity` too, so that the resolver
 * knows in its one read whether an unregistered serial or lot is a 404 (docs/resolver.md#batches-and-items).
 */
const publicFields = (product: Pick<ProductRecord, 'productId' | 'name' | 'category' | 'gtin' | 'qrCodeUrl' | 'granularity'>) => ({
  productId: product.productId,
  name: product.name,
  category: product.category,
  gtin: product.gtin,
  qrCodeUrl: product.qrCodeUrl,
  granularity: product.granularity ?? 'model',
});

/**
 * Writes the product and its GTIN claim in one transaction, so a GTIN is never claimed without
 * its product and two concurrent creates of one GTIN cannot both succeed.
 */
export async function insertProduct(product: ProductRecord, also: readonly TransactItem[] = []): Promise<'created' | 'duplicate'> {
  const written = await writeIfFirstHolds([
    putNew({ PK: tenantPk(product), SK: gtinSk(product.gtin), type: 'gtin', ...publicFields(product) }),
    putNew(toItem(product)),
    ...also,
  ]);
  return written ? 'created' : 'duplicate';
}

/**
 * A transaction's check that the product is still in the tenant (docs/transfers.md#acceptance): a
 * batch's or item's version joins it, so that none is written after the product was transferred away.
 */
export function productHolds(tenant: Tenant, productId: string): TransactItem {
  return { ConditionCheck: { TableName: tableName(), Key: { PK: tenantPk(tenant), SK: productSk(productId) }, ConditionExpression: 'attribute_exists(PK)' } };
}

/**
 * What holds a tenant's GTIN claim besides a product's view: the organization the product was
 * transferred to (`movedTo`), or the transfer moving a product in (`reservedBy`): docs/transfers.md.
 */
export async function getGtinClaim(tenant: Tenant, gtin14: string): Promise<{ movedTo?: string; reservedBy?: string } | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: gtinSk(gtin14) }, ConsistentRead: true }));
  if (!Item) return undefined;
  return { ...(typeof Item.movedTo === 'string' ? { movedTo: Item.movedTo } : {}), ...(typeof Item.reservedBy === 'string' ? { reservedBy: Item.reservedBy } : {}) };
}

export async function getProduct(tenant: Tenant, productId: string, consistent = false): Promise<ProductRecord | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: { PK: tenantPk(tenant), SK: productSk(productId) },
      ConsistentRead: consistent,
    }),
  );
  return Item ? fromItem(Item) : undefined;
}

/**
 * Applies a partial update (`sku: null` removes the SKU) to the product and, in the same
 * transaction, to the public view on its GTIN item and the `also` items (its event). Undefined
 * when the product does not exist.
 */
export async function updateProduct(
  tenant: Tenant,
  product: ProductRecord,
  changes: UpdateProductInput,
  now: string,
  also: readonly TransactItem[] = [],
): Promise<ProductRecord | undefined> {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': now };
  const sets = ['#updatedAt = :updatedAt'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) {
      removes.push(`#${field}`);
    } else {
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
  }
  const publicChanges = (['name', 'category', 'granularity'] as const).filter((field) => changes[field] !== undefined);
  const key = { PK: tenantPk(tenant) };
  const written = await writeIfFirstHolds([
    {
      Update: {
        TableName: tableName(),
        Key: { ...key, SK: productSk(product.productId) },
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...(publicChanges.length
      ? [
          {
            Update: {
              TableName: tableName(),
              Key: { ...key, SK: gtinSk(product.gtin) },
              UpdateExpression: `SET ${publicChanges.map((f) => `#${f} = :${f}`).join(', ')}`,
              ExpressionAttributeNames: Object.fromEntries(publicChanges.map((f) => [`#${f}`, f])),
              ExpressionAttributeValues: Object.fromEntries(publicChanges.map((f) => [`:${f}`, changes[f]])),
            },
          },
        ]
      : []),
    ...also,
  ]);
  if (!written) return undefined;
  return getProduct(tenant, product.productId, true);
}

/**
 * Withdraws or reinstates a product (docs/lifecycle.md#withdrawal): its status on the product and
 * the `withdrawn` flag the resolver reads on its GTIN item, with the `also` items (its event), in
 * one transaction that holds only while the product is in the other state. 'unchanged' when it is
 * already in `to` (or gone): nothing written.
 */
export async function setProductStatus(
  tenant: Tenant,
  product: ProductRecord,
  to: { status: 'withdrawn'; at: string; reason: string } | { status: 'active'; at: string },
  also: readonly TransactItem[] = [],
): Promise<'changed' | 'unchanged'> {
  const pk = tenantPk(tenant);
  const withdraw = to.status === 'withdrawn';
  const written = await writeIfFirstHolds([
    {
      Update: {
        TableName: tableName(),
        Key: { PK: pk, SK: productSk(product.productId) },
        UpdateExpression: withdraw
          ? 'SET #status = :withdrawn, withdrawnAt = :at, withdrawalReason = :reason, updatedAt = :at'
          : 'SET updatedAt = :at REMOVE #status, withdrawnAt, withdrawalReason',
        ConditionExpression: withdraw ? 'attribute_exists(PK) AND (attribute_not_exists(#status) OR #status <> :withdrawn)' : '#status = :withdrawn',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':withdrawn': 'withdrawn', ':at': to.at, ...(to.status === 'withdrawn' ? { ':reason': to.reason } : {}) },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: { PK: pk, SK: gtinSk(product.gtin) },
        UpdateExpression: withdraw ? 'SET withdrawn = :true' : 'REMOVE withdrawn',
        ConditionExpression: 'attribute_exists(PK)',
        ...(withdraw ? { ExpressionAttributeValues: { ':true': true } } : {}),
      },
    },
    ...also,
  ]);
  return written ? 'changed' : 'unchanged';
}

/** Which products a listing shows: all of them, or those a search matches. */
export type ProductFilter = (product: ProductRecord) => boolean;

/**
 * Reads products in creation order until `count` are collected or the tenant has no more. With a
 * `filter`, the partition is read in full pages and only matching products count (a search is a
 * filter over the tenant's products, not an index: it reads them all at worst).
 */
async function queryProducts(tenant: Tenant, count: number, startingAfter?: string, filter?: ProductFilter): Promise<ProductRecord[]> {
  const products: ProductRecord[] = [];
  let exclusiveStartKey: QueryCommandInput['ExclusiveStartKey'] = startingAfter
    ? { PK: tenantPk(tenant), SK: productSk(startingAfter) }
    : undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...beginsWith(tenantPk(tenant), PRODUCT_PREFIX),
        ExclusiveStartKey: exclusiveStartKey,
        ...(filter ? {} : { Limit: count - products.length }),
      }),
    );
    for (const item of page.Items ?? []) {
      const product = fromItem(item);
      if (!filter || filter(product)) products.push(product);
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey && products.length < count);
  return products.slice(0, count);
}

export interface Page {
  products: ProductRecord[];
  hasMore: boolean;
}

/** Cursor form: the `limit` products (that `filter` accepts) after `startingAfter` (or from the first). */
export async function listProductsAfter(tenant: Tenant, limit: number, startingAfter?: string, filter?: ProductFilter): Promise<Page> {
  const products = await queryProducts(tenant, limit + 1, startingAfter, filter);
  return { products: products.slice(0, limit), hasMore: products.length > limit };
}

/** Offset form of a search: one page of the products `filter` accepts, and how many it accepts. */
export async function searchProductsAt(tenant: Tenant, filter: ProductFilter, limit: number, offset: number): Promise<Page & { total: number }> {
  const matches = await queryProducts(tenant, Number.POSITIVE_INFINITY, undefined, filter);
  return { products: matches.slice(offset, offset + limit), hasMore: matches.length > offset + limit, total: matches.length };
}

/** Offset form: reads through the offset (bounded by MAX_OFFSET) and returns one page. */
export async function listProductsAt(tenant: Tenant, limit: number, offset: number): Promise<Page> {
  const products = await queryProducts(tenant, offset + limit + 1);
  return { products: products.slice(offset, offset + limit), hasMore: products.length > offset + limit };
}

export async function countProducts(tenant: Tenant): Promise<number> {
  let total = 0;
  let exclusiveStartKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...beginsWith(tenantPk(tenant), PRODUCT_PREFIX),
        Select: 'COUNT',
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    total += page.Count ?? 0;
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return total;
}
