import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/data/client.ts';
import { listEvents } from '../../lib/data/events.ts';
import { eventKey, gtinSk, passportVersionSk, productSk, tenantPk, versionPageSk } from '../../lib/data/keys.ts';
import { itemBytes } from '../../lib/data/item-size.ts';
import { getProduct } from '../../lib/data/products.ts';
import { insertPassportVersion } from '../../lib/data/passports.ts';
import { newPrefixedId } from '../../lib/domain/ids.ts';
import type { PassportData, PassportVersion } from '../../lib/domain/passport.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { publishPassport } from '../../lib/services/passports.ts';
import { createProduct } from '../../lib/services/products.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { throughput, type Row } from './measure.ts';

/**
 * What the lifecycle adds to a publication (docs/lifecycle.md): the event item written in the
 * version's transaction and the digest (hashing, and its fields on the version, page and GTIN
 * items). Both sides run in this process against the same DynamoDB Local: the real publish, and
 * the same transaction as it was before the lifecycle (no event, no digest fields), through the
 * same data function, for the throughput ratio; write units are modelled from the items one
 * publication stored (itemBytes of lib/data/item-size.ts), with and without what the lifecycle added.
 */
const WINE: PassportData = {
  productType: 'wine',
  colour: 'red',
  vintage: 2022,
  ingredients: ['Grapes', 'Acidity regulator: tartaric acid', 'Preservative: sulphites'],
  nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 },
  allergens: { containsSulphites: true, containsEgg: false, containsFish: false, containsMilk: false },
  origin: { country: 'FR', region: 'Bordeaux', designation: 'AOC Bordeaux Supérieur' },
  producers: [{ name: 'Château Exemple', role: 'producer', country: 'FR' }],
};

/**
 * Items' sizes as DynamoDB bills them: lib/data/item-size.ts. DynamoDB Local does not report a
 * transaction's capacity per item (it reports one item's), so the bench models it from the items
 * as stored.
 */
const topLevelBytes = (item: Record<string, unknown>): number => itemBytes(item);

/** A transactional write of an item: two units per started KB. */
const transactionalUnits = (item: Record<string, unknown> | undefined): number => (item ? 2 * Math.ceil(topLevelBytes(item) / 1024) : 0);

/** The item as it was before the lifecycle: without the digest chain's fields (also inside a nested version). */
function withoutLifecycle(item: Record<string, unknown>): Record<string, unknown> {
  const { digest: _d, previousDigest: _p, publishedAt: _a, gtin, passportDigest: _pd, passport, ...rest } = item;
  return {
    ...rest,
    // The version items gained `gtin`; the product, GTIN and page items always had it.
    ...(item.type === 'passport' ? {} : gtin === undefined ? {} : { gtin }),
    ...(passport && typeof passport === 'object' ? { passport: withoutLifecycle(passport as Record<string, unknown>) } : {}),
  };
}

export async function benchLifecycle(count: number, concurrency: number): Promise<Row[]> {
  const { organization } = await createOrganization('Bench lifecycle');
  const tenant: Tenant = { orgId: organization.orgId, environment: 'live' };
  const origin = { actor: { type: 'system' as const, id: 'bench' }, requestId: null };
  const runs = Math.max(20, Math.min(200, Math.floor(count / 10)));
  const products = await Promise.all(
    Array.from({ length: 2 * concurrency }, (_, i) =>
      createProduct(tenant, { name: `Bench lifecycle ${i}`, category: 'wine', gtin: uniqueGtin13() }, origin),
    ),
  );
  const [lifecycle, before] = [products.slice(0, concurrency), products.slice(concurrency)];

  /** A publication as it is: the version sealed into the chain, with its passport.published event. */
  const publishNow = async (i: number) => {
    const product = lifecycle[i % lifecycle.length]!;
    await publishPassport(tenant, (await getProduct(tenant, product.productId, true))!, { ...WINE, vintage: 2000 + (i % 20) }, origin);
  };
  /** The same transaction as before the lifecycle: no event item, no digest fields. */
  const publishBefore = async (i: number) => {
    const product = (await getProduct(tenant, before[i % before.length]!.productId, true))!;
    const version = {
      passportId: newPrefixedId('ps'),
      productId: product.productId,
      version: product.passportVersion + 1,
      status: 'published',
      data: { ...WINE, vintage: 2000 + (i % 20) },
      createdAt: new Date().toISOString(),
      // The data function sets the product's digest: an empty one here (a few bytes, not a digest's 71).
      digest: '',
    } as unknown as PassportVersion;
    await insertPassportVersion(tenant, product, version);
  };

  // One publisher per product: no retries, so every transaction is one publication.
  const inFlight = Math.min(concurrency, lifecycle.length);
  const measure = (task: (i: number) => Promise<void>) => throughput(task, runs, inFlight);
  await measure(publishBefore);
  await measure(publishNow);
  const old = await measure(publishBefore);
  const now = await measure(publishNow);

  // The items one publication wrote, as stored: what its transaction is billed for.
  const product = (await getProduct(tenant, lifecycle[0]!.productId, true))!;
  const pk = tenantPk(tenant);
  const get = async (PK: string, SK: string) => (await db().send(new GetCommand({ TableName: tableName(), Key: { PK, SK } }))).Item;
  const [newest] = (await listEvents(tenant, { limit: 1, type: 'passport.published' })).events;
  const items = await Promise.all([
    get(pk, productSk(product.productId)),
    get(pk, passportVersionSk(product.productId, product.passportVersion)),
    get(pk, gtinSk(product.gtin)),
    get(pk, versionPageSk(product.gtin, product.passportVersion)),
  ]);
  const pointer = { PK: pk, SK: 'PASSPORTID#ps_00000000000000000000', type: 'passportId', productId: product.productId, version: product.passportVersion };
  const event = newest ? await get(eventKey(tenant, newest.id).PK, eventKey(tenant, newest.id).SK) : undefined;
  const unitsNow = [...items, pointer, event].reduce((sum: number, item) => sum + transactionalUnits(item), 0);
  const unitsBefore = [...items, pointer].reduce((sum: number, item) => sum + transactionalUnits(item && withoutLifecycle(item)), 0);
  return [
    { benchmark: 'lifecycle', figure: 'write units per publish, with event and digest', value: unitsNow, unit: 'WCU', note: 'modelled from the stored items: product, version, id pointer, page, GTIN item, event; 2 per started KB' },
    { benchmark: 'lifecycle', figure: 'write units per publish, before the lifecycle', value: unitsBefore, unit: 'WCU', note: 'the same items without the event and the digest fields' },
    { benchmark: 'lifecycle', figure: 'event item size', value: event ? topLevelBytes(event) : 0, unit: 'bytes', note: 'passport.published: the passport read form of a complete wine label' },
    { benchmark: 'lifecycle', figure: 'publish throughput ratio, lifecycle / before', value: now / old, unit: '×', note: `${runs} publications each, ${inFlight} in flight, same run and data function` },
  ];
}
