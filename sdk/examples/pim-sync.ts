/**
 * PIM sync (docs/sdk.md#examples): makes the API hold what a product-information system exported.
 *
 *   PASSPORT_API_KEY=sk_test_… PASSPORT_BASE_URL=http://localhost:3000 npx tsx sdk/examples/pim-sync.ts pim-export.json
 *
 * The file is a JSON array of `{gtin, name, category, brand?, passport}`, `passport` being passport
 * data (docs/api.md#passport-data). A product is created when its GTIN is new, renamed when its name
 * or brand changed, and a passport version is published only when a field the PIM holds differs from
 * the current version; running it twice changes nothing the second time. Each creating call carries
 * an Idempotency-Key (the SDK adds it), so a retry after a lost answer creates nothing twice.
 */
import { readFile } from 'node:fs/promises';
import { PassportClient, PassportError, type CreateProductBody, type Passport, type Product } from '@product-passport/sdk';

interface PimRecord {
  gtin: string;
  name: string;
  category: CreateProductBody['category'];
  brand?: string;
  passport: Record<string, unknown>;
}

const client = new PassportClient({ apiKey: process.env.PASSPORT_API_KEY, baseUrl: process.env.PASSPORT_BASE_URL ?? 'http://localhost:3000' });

/** The product with this GTIN (the search matches GTIN prefixes in any length; the GTIN-14 must be equal). */
async function findByGtin(gtin: string): Promise<Product | undefined> {
  for await (const product of client.products.list({ q: gtin })) if (product.gtin === gtin.padStart(14, '0')) return product;
  return undefined;
}

async function currentPassport(productId: string): Promise<Passport | undefined> {
  try {
    return await client.passports.get(productId);
  } catch (error) {
    if (error instanceof PassportError && error.status === 404) return undefined;
    throw error;
  }
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

/** Whether the current version holds each field of the PIM's data as the PIM has it (fields the service adds do not count). */
const holds = (current: Record<string, unknown>, wanted: Record<string, unknown>): boolean => Object.entries(wanted).every(([key, value]) => canonical(current[key]) === canonical(value));

const records = JSON.parse(await readFile(process.argv[2] ?? 'pim-export.json', 'utf8')) as PimRecord[];
const counts = { created: 0, renamed: 0, published: 0, unchanged: 0 };
for (const record of records) {
  let product = await findByGtin(record.gtin);
  if (!product) {
    const { productId } = await client.products.create({ gtin: record.gtin, name: record.name, category: record.category, ...(record.brand ? { brand: record.brand } : {}) });
    product = await client.products.get(productId);
    counts.created++;
    console.log(`created    ${product.gtin}  ${record.name}`);
  } else if (product.name !== record.name || (record.brand !== undefined && product.brand !== record.brand)) {
    await client.products.update(product.productId, { name: record.name, ...(record.brand ? { brand: record.brand } : {}) });
    counts.renamed++;
    console.log(`renamed    ${product.gtin}  ${record.name}`);
  }
  const current = await currentPassport(product.productId);
  if (current && holds(current.data as Record<string, unknown>, record.passport)) {
    counts.unchanged++;
    console.log(`unchanged  ${product.gtin}  version ${current.version}`);
    continue;
  }
  const published = await client.passports.publish({ productId: product.productId, data: record.passport });
  counts.published++;
  console.log(`published  ${product.gtin}  version ${published.version}`);
}
console.log(`${counts.created} created, ${counts.renamed} renamed, ${counts.published} published, ${counts.unchanged} unchanged`);
