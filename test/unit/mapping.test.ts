import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { applyMapping, convert, HEADLESS_CMS_MAPPING, mappingSchema, select, sourceOf, type MapStats } from '../../lib/domain/mapping.ts';
import { isUpsertEvent, verifySignature, verifyStandardWebhook } from '../../lib/domain/webhook.ts';

describe('source paths', () => {
  it('select values through objects and arrays, with the concrete path of each', () => {
    const doc = { a: { list: [{ n: 1 }, { n: 2 }, { m: 3 }] } };
    expect(select(doc, 'a.list[].n')).toEqual([
      { value: 1, at: 'a.list[0].n' },
      { value: 2, at: 'a.list[1].n' },
    ]);
    expect(select(doc, 'a.missing.n')).toEqual([]);
    expect(select({ a: 'text' }, 'a.b')).toEqual([]);
  });
});

describe('conversions', () => {
  it.each([
    ['number', '12,5', 12.5],
    ['number', '13.5 % vol', 13.5],
    ['number', 7, 7],
    ['integer', '2021', 2021],
    ['boolean', 'yes', true],
    ['boolean', 0, false],
    ['upper', ' fr ', 'FR'],
    ['abvToGramsPer100ml', '12.5', 9.86],
  ] as const)('%s converts %j to %j', (conversion, input, output) => {
    expect(convert(input, conversion)).toEqual({ ok: true, value: output });
  });

  it.each([
    ['number', 'lots'],
    ['integer', '20.5'],
    ['boolean', 'maybe'],
    ['abvToGramsPer100ml', '140'],
    ['string', { a: 1 }],
  ] as const)('%s refuses %j', (conversion, input) => {
    expect(convert(input, conversion).ok).toBe(false);
  });
});

describe('applyMapping', () => {
  const payload = {
    entity: {
      attributes: {
        product_name: 'Rouge',
        barcode: [
          { barcode_number: '3760123450027', vintage_year: 2021 },
          { barcode_number: '96385074', vintage_year: 2022 },
        ],
        energy_value_kj: '320',
        producer: [{ name: 'A' }, { name: 'B' }],
      },
    },
  };

  it('makes one product per barcode, reading per-barcode fields from the same element', () => {
    const result = applyMapping(payload, HEADLESS_CMS_MAPPING);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.products.map((p) => [p.gtin, p.data.vintage])).toEqual([
      ['3760123450027', 2021],
      ['96385074', 2022],
    ]);
    expect(result.products[0]?.data.nutrition).toEqual({ energyKj: 320, energyKcal: 76 });
    expect(result.products[0]?.producers).toEqual(['A', 'B']);
    expect(sourceOf(result.products[1]!, 'data.vintage')).toBe('entity.attributes.barcode[1].vintage_year');
    expect(sourceOf(result.products[0]!, 'data.producers[1].name')).toBe('entity.attributes.producer[1].name');
  });

  it('names the payload field of a value that does not convert', () => {
    const bad = structuredClone(payload);
    bad.entity.attributes.energy_value_kj = 'many';
    expect(applyMapping(bad, HEADLESS_CMS_MAPPING)).toMatchObject({ ok: false, param: 'entity.attributes.energy_value_kj' });
  });

  it('validates a mapping: known targets, path syntax, conversions, a gtin', () => {
    expect(mappingSchema.safeParse(HEADLESS_CMS_MAPPING).success).toBe(true);
    expect(mappingSchema.safeParse({ gtin: 'ean', flavour: 'x' }).success).toBe(false);
    expect(mappingSchema.safeParse({ gtin: 'a..b' }).success).toBe(false);
    expect(mappingSchema.safeParse({ name: 'title' }).success).toBe(false);
  });

  it('refuses targets named like Object.prototype members (constructor, toString): they are not fields', () => {
    for (const target of ['constructor', 'toString', 'hasOwnProperty']) {
      const result = mappingSchema.safeParse(JSON.parse(`{"gtin": "ean", "${target}": "title"}`));
      expect(result.success, target).toBe(false);
      expect(result.error?.issues[0]?.path, target).toEqual([target]);
    }
  });
});

describe('webhook signatures', () => {
  const body = Buffer.from('{"a":1}');
  const sig = (secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('accept the current secret and an unexpired previous one, nothing else', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const secrets = [
      { secret: 'new', createdAt: '2026-11-21T11:00:00Z' },
      { secret: 'old', createdAt: '2026-11-01T00:00:00Z', expiresAt: '2026-11-22T11:00:00Z' },
    ];
    expect(verifySignature(sig('new'), body, secrets, now)).toBe(true);
    expect(verifySignature(sig('old'), body, secrets, now)).toBe(true);
    expect(verifySignature(sig('old'), body, secrets, Date.parse('2026-11-22T11:00:01Z'))).toBe(false);
    expect(verifySignature(sig('other'), body, secrets, now)).toBe(false);
    expect(verifySignature(sig('new').toUpperCase(), body, secrets, now)).toBe(false);
    expect(verifySignature(sig('new').slice(7), body, secrets, now)).toBe(false);
    expect(verifySignature(undefined, body, secrets, now)).toBe(false);
  });

  it('treat create, update and publish events of products as upserts, and nothing else', () => {
    expect(isUpsertEvent({ event_type: 'entity.update', entity_type: 'product' })).toBe(true);
    expect(isUpsertEvent({ event_type: 'entity.publish' })).toBe(true);
    expect(isUpsertEvent({})).toBe(true);
    expect(isUpsertEvent({ event_type: 'entity.delete', entity_type: 'product' })).toBe(false);
    expect(isUpsertEvent({ event_type: 'entity.update', entity_type: 'category' })).toBe(false);
  });
});

/** A headless-CMS payload naming `products` barcodes and listing `ingredients` ingredients. */
function bulkPayload(products: number, ingredients = 2) {
  return {
    event_type: 'entity.update',
    entity: {
      attributes: {
        product_name: 'Rouge',
        barcode: Array.from({ length: products }, (_, i) => ({ barcode_number: String(10_000_000 + i), vintage_year: 2022 })),
        list_of_ingredient: Array.from({ length: ingredients }, (_, i) => ({ ingredient_name: `Ingredient ${i}` })),
        energy_value_kj: '318',
        producer: [{ name: 'A' }],
      },
    },
  };
}

describe('mapping work per delivery (security finding 6)', () => {
  it('attack: a payload of thousands of barcodes is refused at the product count, before any other path is mapped', () => {
    // Prepare: about what 256 KiB of barcodes holds
    const payload = bulkPayload(7000);
    const stats: MapStats = { visited: 0 };
    // Act
    const result = applyMapping(payload, HEADLESS_CMS_MAPPING, { maxProducts: 100, stats });
    // Assess: refused, naming the GTIN path, after one walk over the barcodes and nothing else
    expect(result).toMatchObject({ ok: false, tooMany: 7000, param: 'entity.attributes.barcode[].barcode_number' });
    expect(stats.visited).toBeLessThanOrEqual(7000 + 10);
  });

  it('attack: per-product paths read only their own element, and shared paths are read once, however many products', () => {
    // Prepare: 100 products (the cap) and 5,000 ingredients shared by all of them
    const payload = bulkPayload(100, 5000);
    const stats: MapStats = { visited: 0 };
    // Act
    const result = applyMapping(payload, HEADLESS_CMS_MAPPING, { maxProducts: 100, stats });
    // Assess: every product mapped, in work linear in the payload (a rescan per product would be 100 × 5,000)
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.products).toHaveLength(100);
    expect(result.products[99]?.data.vintage).toBe(2022);
    expect(result.products[99]?.data.ingredients).toHaveLength(5000);
    expect(sourceOf(result.products[99]!, 'data.ingredients[4999]')).toBe('entity.attributes.list_of_ingredient[4999].ingredient_name');
    expect(sourceOf(result.products[42]!, 'data.vintage')).toBe('entity.attributes.barcode[42].vintage_year');
    expect(stats.visited).toBeLessThan(2 * 5000 + 20 * 100);
  });
});

describe('mapping targets named like prototype machinery', () => {
  it('attack: a __proto__ target is refused naming it, not dropped in silence', () => {
    for (const target of ['__proto__', 'prototype', 'nutrition.__proto__', 'constructor']) {
      // Act
      const result = mappingSchema.safeParse(JSON.parse(`{"gtin": "ean", "${target}": "title"}`));
      // Assess
      expect(result.success, target).toBe(false);
      expect(result.error?.issues[0]?.path, target).toEqual([target]);
    }
  });

  it('reads source paths through own properties only', () => {
    expect(select({ a: {} }, 'a.constructor')).toEqual([]);
    expect(select(JSON.parse('{"a": {"constructor": "x"}}'), 'a.constructor')).toEqual([{ value: 'x', at: 'a.constructor' }]);
  });
});

describe('watermarks: how new a delivery says it is', () => {
  it('finds the common update time or revision fields without a mapping for them, revision first', () => {
    const cms = { ...bulkPayload(1), sys: { revision: 7, updatedAt: '2026-11-20T10:00:00Z' } };
    expect(applyMapping(cms, HEADLESS_CMS_MAPPING)).toMatchObject({ ok: true, products: [{ watermark: { kind: 'revision', value: 7, at: 'sys.revision' } }] });
    const sample = bulkPayload(1);
    Object.assign(sample.entity.attributes, { updated_at: '2026-11-20T10:00:00.000Z' });
    expect(applyMapping(sample, HEADLESS_CMS_MAPPING)).toMatchObject({
      ok: true,
      products: [{ watermark: { kind: 'time', value: Date.parse('2026-11-20T10:00:00Z'), at: 'entity.attributes.updated_at' } }],
    });
    const none = applyMapping(bulkPayload(1), HEADLESS_CMS_MAPPING);
    expect(none.ok && none.products[0]?.watermark).toBeUndefined();
    // The watermark is not passport data.
    expect(none.ok && Object.keys(none.products[0]?.data ?? {})).not.toContain('updatedAt');
  });

  it('reads the field a mapping names, and refuses a value there that is no time', () => {
    const mapping = { gtin: 'ean', updatedAt: 'meta.modified' };
    expect(applyMapping({ ean: '96385074', meta: { modified: 1_763_632_800 } }, mapping)).toMatchObject({
      ok: true,
      products: [{ watermark: { kind: 'time', value: 1_763_632_800_000 } }],
    });
    expect(applyMapping({ ean: '96385074', meta: { modified: 'yesterday' } }, mapping)).toMatchObject({ ok: false, param: 'meta.modified' });
  });
});

describe('Standard Webhooks signatures (signed by the standardwebhooks package)', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const body = Buffer.from('{"entity":{}}');
  const secrets = [{ secret, createdAt: '2026-11-01T00:00:00Z' }];
  const headers = (id: string, at: Date, signer = secret) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(signer).sign(id, at, body),
  });

  it('accept a valid signature, also among others, and refuse a wrong one', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const valid = headers('msg_1', new Date(now));
    expect(verifyStandardWebhook(valid, body, secrets, now)).toEqual({ ok: true, id: 'msg_1', timestamp: now });
    const other = headers('msg_1', new Date(now), `whsec_${Buffer.from('another key of thirty-two bytes!').toString('base64')}`);
    expect(verifyStandardWebhook({ ...valid, 'webhook-signature': `${other['webhook-signature']} ${valid['webhook-signature']}` }, body, secrets, now).ok).toBe(true);
    expect(verifyStandardWebhook(other, body, secrets, now)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyStandardWebhook({ ...valid, 'webhook-id': 'msg_2' }, body, secrets, now)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyStandardWebhook(valid, Buffer.from('{"entity":{} }'), secrets, now)).toEqual({ ok: false, reason: 'signature' });
  });

  it('attack: a validly signed delivery more than 5 minutes old (or ahead) is refused as out of tolerance', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(verifyStandardWebhook(headers('msg_1', new Date(now - 6 * 60_000)), body, secrets, now)).toEqual({ ok: false, reason: 'timestamp' });
    expect(verifyStandardWebhook(headers('msg_1', new Date(now + 6 * 60_000)), body, secrets, now)).toEqual({ ok: false, reason: 'timestamp' });
    expect(verifyStandardWebhook(headers('msg_1', new Date(now - 4 * 60_000)), body, secrets, now).ok).toBe(true);
  });
});
