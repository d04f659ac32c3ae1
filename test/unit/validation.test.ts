import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { passportDataSchema } from '../../lib/domain/passport.ts';
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
});
