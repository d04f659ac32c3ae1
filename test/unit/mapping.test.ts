import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyMapping, convert, HEADLESS_CMS_MAPPING, mappingSchema, select, sourceOf } from '../../lib/domain/mapping.ts';
import { isUpsertEvent, verifySignature } from '../../lib/domain/webhook.ts';

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
