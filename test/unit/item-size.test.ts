import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DYNAMODB_MAX_ITEM_BYTES, itemBytes, MAX_PUBLISHED_ITEM_BYTES, numberBytes, valueBytes } from '../../lib/data/item-size.ts';
import { labelTermsBytes, labelTermsDigest, legalTermKeys, MAX_TERM_OVERRIDES_BYTES, type LabelTerms } from '../../lib/domain/labelling-term.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import type { PassportData } from '../../lib/domain/passport.ts';
import type { ProductRecord } from '../../lib/domain/product.ts';
import { ValidationError } from '../../lib/http/errors.ts';
import { publishVersion } from '../../lib/services/passports.ts';

/** DynamoDB's item size rule (lib/data/item-size.ts), against sizes computed by hand. */
describe('DynamoDB item size', () => {
  it('counts a string attribute as its name and value in UTF-8 bytes', () => {
    // Act
    const bytes = itemBytes({ name: 'Château' });

    // Assess: "name" 4 + "Château" 8 (â is two bytes)
    expect(bytes).toBe(12);
  });

  it('counts a number as one byte per two significant digits plus one, without leading and trailing zeros', () => {
    // Assess: 7 → 1 digit → 2; 12345 → 5 digits → 4; 1200 → "12" → 2; 0.0015 → "15" → 2; -3.25 → "325" → 3; 1e21 → "1" → 2
    expect([7, 12345, 1200, 0.0015, -3.25, 1e21].map(numberBytes)).toEqual([2, 4, 2, 2, 3, 2]);
    // An attribute: "n" 1 + 12345 4
    expect(itemBytes({ n: 12345 })).toBe(5);
  });

  it('counts booleans and nulls as one byte and binary as its raw length', () => {
    // Assess: "done" 4 + 1; "gone" 4 + 1; "blob" 4 + 3 raw bytes (not the 4 of base64)
    expect(itemBytes({ done: true, gone: null, blob: new Uint8Array([1, 2, 3]) })).toBe(17);
  });

  it('counts a list and a map as three bytes plus one byte and the size of each element (a map key as a name)', () => {
    // Prepare: rows: [ {row: 2, cells: {gtin: "4006381333931"}} ]
    const item = { rows: [{ row: 2, cells: { gtin: '4006381333931' } }] };

    // Act
    const bytes = itemBytes(item);

    // Assess: "rows" 4 + list 3 + element 1 + map 3
    //   + (1 + "row" 3 + number 2) + (1 + "cells" 5 + map 3 + (1 + "gtin" 4 + 13))
    expect(bytes).toBe(4 + 3 + 1 + 3 + (1 + 3 + 2) + (1 + 5 + 3 + (1 + 4 + 13)));
    expect(bytes).toBe(44);
    expect(valueBytes([])).toBe(3);
    expect(valueBytes({})).toBe(3);
  });

  it('counts a string set as the sum of its elements', () => {
    // Assess: "a" 1 + "bcd" 3
    expect(valueBytes(new Set(['a', 'bcd']))).toBe(4);
  });

  it('states the 400 KB limit in bytes', () => {
    // Assess
    expect(DYNAMODB_MAX_ITEM_BYTES).toBe(409_600);
  });
});

describe("a tenant's corrections of legal terms in the item-size model (docs/labelling.md#correcting-a-term)", () => {
  /** Every legal term of every language corrected, the texts filling the budget to the byte. */
  const fullSet = (): LabelTerms => {
    const keys = LANGUAGES.flatMap((lang) => legalTermKeys(lang).map((key) => [lang, key] as const));
    const each = Math.floor(MAX_TERM_OVERRIDES_BYTES / keys.length);
    let terms: LabelTerms = {};
    keys.forEach(([lang, key], i) => {
      terms = { ...terms, [lang]: { ...terms[lang], [key]: 'x'.repeat(i === 0 ? MAX_TERM_OVERRIDES_BYTES - each * (keys.length - 1) : each) } };
    });
    return terms;
  };

  it('keeps the set item at the budget (every legal term corrected) far within an item', () => {
    // Prepare
    const terms = fullSet();
    const digest = labelTermsDigest(terms);

    // Act
    const bytes = itemBytes({ PK: 'T#org_0123456789abcdef#live', SK: 'LABELTERMSET', type: 'labelTermSet', terms, bytes: labelTermsBytes(terms), digest, revision: 999_999, copiedDigest: digest });

    // Assess: 64 KiB of texts, and the languages' and keys' names beside them
    expect(labelTermsBytes(terms)).toBe(MAX_TERM_OVERRIDES_BYTES);
    expect(bytes).toBeGreaterThan(MAX_TERM_OVERRIDES_BYTES);
    expect(bytes).toBeLessThan(80 * 1024);
  });

  it("adds to a version's page item only the digest that names the set, whatever the set's size", () => {
    // Prepare
    const empty = labelTermsDigest({});
    const full = labelTermsDigest(fullSet());

    // Act / Assess: "labelTermSet" 12 + "sha256:" and 43 base64url characters
    expect(itemBytes({ labelTermSet: full })).toBe(12 + 50);
    expect(itemBytes({ labelTermSet: empty })).toBe(itemBytes({ labelTermSet: full }));
    expect(MAX_PUBLISHED_ITEM_BYTES).toBeLessThan(DYNAMODB_MAX_ITEM_BYTES);
  });
});

describe('publishing measures its largest item first', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  beforeEach(() => {
    ddb.reset();
    ddb.onAnyCommand().resolves({});
  });

  it("refuses a version whose largest item would pass MAX_PUBLISHED_ITEM_BYTES with 422 naming data, writing nothing (never DynamoDB's ValidationException, a 500)", async () => {
    // Prepare: 100 ingredients, each given in all 24 languages at 200 characters: about 500 KB stored
    const product: ProductRecord = {
      productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
      orgId: 'org_1',
      environment: 'test',
      gtin: '04006381333931',
      name: 'Riesling',
      category: 'food',
      qrCodeUrl: 'http://localhost:3000/01/04006381333931',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
      passportVersion: 0,
    };
    const ingredients = Array.from({ length: 100 }, (_, i) => ({ text: Object.fromEntries(LANGUAGES.map((lang) => [lang, `${i} `.padEnd(200, 'x')])) }));

    // Act
    const refusal = await publishVersion({ orgId: 'org_1', environment: 'test' }, product, { ingredients } as PassportData, {
      origin: { actor: { type: 'user', id: 'usr_1' }, requestId: null },
      unlessCurrent: false,
    }).catch((error: unknown) => error);

    // Assess
    expect(refusal).toBeInstanceOf(ValidationError);
    expect((refusal as ValidationError).toBody().error).toMatchObject({ code: 'validation_error', param: 'data' });
    expect((refusal as ValidationError).message).toMatch(/too large to publish/);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
