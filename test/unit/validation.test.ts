import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPassportSchema, passportDataSchema } from '../../lib/domain/passport.ts';
import { createProductSchema, updateProductSchema } from '../../lib/domain/product.ts';
import { ValidationError } from '../../lib/http/errors.ts';
import { formatPath, parseBody, parseOrThrow, parseQuery } from '../../lib/http/validation.ts';

function thrown(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return error as ValidationError;
  }
  throw new Error('did not throw');
}

describe('zod issues as 422 validation errors', () => {
  it('formats nested paths with dots and array indexes', () => {
    expect(formatPath(['data', 'producers', 0, 'name'])).toBe('data.producers[0].name');
  });

  it('names an unknown nested field by its full path', () => {
    const schema = z.strictObject({ data: z.strictObject({ nutrition: z.strictObject({ fatG: z.number() }) }) });
    const error = thrown(() => parseOrThrow(schema, { data: { nutrition: { fatg: 1 } } }));
    expect(error).toMatchObject({ status: 422, type: 'validation_error', param: 'data.nutrition.fatg' });
    expect(error.message).toBe("Unknown field 'data.nutrition.fatg'.");
  });

  it('says a required field is required, and suggests the allowed values of an enum', () => {
    expect(thrown(() => parseBody(createProductSchema, { category: 'wine', gtin: '96385074' }))).toMatchObject({
      param: 'name',
      message: 'name is required.',
    });
    const error = thrown(() => parseBody(createProductSchema, { name: 'N', category: 'beer', gtin: '96385074' }));
    expect(error.param).toBe('category');
    expect(error.suggestion).toBe('Use one of: wine, food, textile, electronics, battery.');
  });

  it('answers 400 for a body that is not an object', () => {
    expect(thrown(() => parseBody(updateProductSchema, [1]))).toMatchObject({ status: 400, type: 'invalid_request_error' });
  });

  it('answers 400 naming an unknown query parameter', () => {
    expect(thrown(() => parseQuery(z.object({}), { sort: 'name' }, ['limit']))).toMatchObject({
      status: 400,
      param: 'sort',
    });
  });

  it('refuses nutrition amounts too small to mean anything (DynamoDB cannot store 5e-324), keeps 0 and small real ones', () => {
    const error = thrown(() => parseOrThrow(passportDataSchema, { nutrition: { alcoholG: 5e-324 } }, ['data']));
    expect(error).toMatchObject({ status: 422, param: 'data.nutrition.alcoholG' });
    expect(() => parseOrThrow(passportDataSchema, { nutrition: { fatG: 1e-131 } })).toThrow(ValidationError);
    expect(parseOrThrow(passportDataSchema, { nutrition: { fatG: 0, saltG: 0.001 } })).toEqual({ nutrition: { fatG: 0, saltG: 0.001 } });
  });

  it('keeps sku: null (clears) apart from an absent sku (unchanged)', () => {
    expect(parseBody(updateProductSchema, { sku: null })).toEqual({ sku: null });
    expect(parseBody(updateProductSchema, {})).toEqual({});
  });

  describe('messages are plain sentences naming the rule, never validator wording (issue 12 item 6)', () => {
    const VALIDATOR_WORDING = /regex|Invalid (input|string)|must match pattern|format\./;

    it('names the rule of a pattern in words: no "Send productId in regex format."', () => {
      const error = thrown(() => parseBody(createPassportSchema, { productId: 'prd_1', data: {} }));
      expect(error).toMatchObject({ status: 422, param: 'productId', message: 'productId must be a product id (a UUID).' });
      expect(`${error.message} ${error.suggestion ?? ''}`).not.toMatch(VALIDATOR_WORDING);
    });

    it('gives a field without a message of its own a plain one naming it, instead of zod defaults', () => {
      const schema = z.strictObject({
        code: z.string().regex(/^[A-Z]{3}$/),
        id: z.uuid(),
        size: z.int().max(5),
        tags: z.array(z.string()).min(1),
        kind: z.enum(['a', 'b']),
      });
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ code: 'abc' }, 'code', 'code is not in the form the API reference gives for it.'],
        [{ id: 'nope' }, 'id', 'id must be a UUID, such as 0192f4a6-3b8c-7d2e-9f10-4a5b6c7d8e9f.'],
        [{ size: 6 }, 'size', 'size must be at most 5.'],
        [{ size: 'x' }, 'size', 'size must be a number.'],
        [{ tags: [] }, 'tags', 'tags must hold at least 1 item.'],
        [{ kind: 'c' }, 'kind', 'kind must be one of: a, b.'],
        [{}, 'code', 'code is required.'],
      ];
      const valid = { code: 'ABC', id: '0192f4a6-3b8c-7d2e-9f10-4a5b6c7d8e9f', size: 1, tags: ['t'], kind: 'a' };
      for (const [input, param, message] of cases) {
        const body = Object.keys(input).length ? { ...valid, ...input } : {};
        const error = thrown(() => parseBody(schema, body));
        expect(error, JSON.stringify(input)).toMatchObject({ param, message });
        expect(`${error.message} ${error.suggestion ?? ''}`).not.toMatch(VALIDATOR_WORDING);
      }
    });

    it('suggests a UUID by example, and lists allowed values only when the list is short', () => {
      expect(thrown(() => parseOrThrow(z.object({ id: z.uuid() }), { id: 'x' })).suggestion).toBe(
        'Send id as a UUID, such as 0192f4a6-3b8c-7d2e-9f10-4a5b6c7d8e9f.',
      );
      const many = z.object({ n: z.enum(Array.from({ length: 20 }, (_, i) => `v${i}`) as [string, ...string[]]) });
      const error = thrown(() => parseOrThrow(many, { n: 'x' }));
      expect(error.message).toBe('n is not one of the allowed values.');
      expect(error.suggestion).toBeUndefined();
    });

    it('keeps a schema’s own message and suggestion first (a country code)', () => {
      const error = thrown(() => parseOrThrow(passportDataSchema, { origin: { country: 'XX' } }, ['data']));
      expect(error).toMatchObject({
        param: 'data.origin.country',
        message: 'country must be an ISO 3166-1 alpha-2 country code in upper case, such as FR or DE.',
        suggestion: 'Send two upper-case letters, such as FR, DE, IT or ES.',
      });
    });
  });
});
