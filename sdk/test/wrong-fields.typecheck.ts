/**
 * A type-level test, checked by `tsc --noEmit` in `npm test` (the root tsconfig.json includes sdk/;
 * docs/sdk.md#types). Each request is written twice: as it compiles, and with one field name
 * wrong, which must be a compile error: an `@ts-expect-error` above a line that compiles is itself
 * an error, so this file fails the type check the day a wrong name gets through.
 */
import { PassportClient } from '../src/index.ts';

const client = new PassportClient({ apiKey: 'sk_test_…', baseUrl: 'http://localhost:3000' });

export const requests = () => [
  client.products.create({ name: 'Riesling', category: 'wine', gtin: '4006381333931' }),
  // @ts-expect-error `nmae` is no field of a product
  client.products.create({ nmae: 'Riesling', category: 'wine', gtin: '4006381333931' }),

  client.products.list({ q: 'Riesling' }),
  // @ts-expect-error `query` is no query parameter of the product list
  client.products.list({ query: 'Riesling' }),

  client.suppliers.create({ name: 'Tonnellerie', country: 'FR' }),
  // @ts-expect-error `contry` is no field of a supplier
  client.suppliers.create({ name: 'Tonnellerie', contry: 'FR' }),

  client.passports.publish({ productId: 'p', data: { productType: 'wine', colour: 'red' } }),
  // @ts-expect-error `color` is no field of passport data (nested fields are checked too)
  client.passports.publish({ productId: 'p', data: { productType: 'wine', color: 'red' } }),

  client.events.list({ type: 'passport.published' }),
  // @ts-expect-error `passport.publish` is no event type
  client.events.list({ type: 'passport.publish' }),
];
