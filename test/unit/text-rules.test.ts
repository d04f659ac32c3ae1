import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createPassportSchema } from '../../lib/domain/passport.ts';
import { createProductSchema, updateProductSchema } from '../../lib/domain/product.ts';
import { createSupplierSchema } from '../../lib/domain/supplier.ts';
import { openUnitDataSchema } from '../../lib/domain/unit-data.ts';
import { createEndpointSchema } from '../../lib/domain/webhook.ts';
import { createSubscriptionSchema } from '../../lib/domain/event-subscription.ts';
import { createApiKeySchema } from '../../lib/domain/api-key.ts';
import { batteryPassportDataSchema } from '../../lib/domain/battery/index.ts';
import { text as batteryText } from '../../lib/domain/battery/fields.ts';
import { plainText, textProblem } from '../../lib/domain/text.ts';
import { putLabelTermSchema } from '../../lib/domain/labelling-term.ts';
import { parseOrThrow } from '../../lib/http/validation.ts';
import { ValidationError } from '../../lib/http/errors.ts';

/** Every code point of [from, to]. */
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

const C0 = range(0x00, 0x1f);
const C1 = [0x7f, ...range(0x80, 0x9f)];
const BIDI = [...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];
const NONCHARACTERS = [...range(0xfdd0, 0xfdef), ...range(0, 16).flatMap((plane) => [plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff])];

/** The refusal `schema` gives `input`, as the API would answer it. */
function refusal(schema: z.ZodType, input: unknown): ValidationError | undefined {
  try {
    parseOrThrow(schema, input);
    return undefined;
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
}

describe('textProblem (docs/api.md#text-and-json-rules)', () => {
  it('refuses every C0 and C1 control character on one line, TAB and LF included', () => {
    // Act / Assess
    for (const cp of [...C0, ...C1]) {
      expect(textProblem(`ab${String.fromCodePoint(cp)}c`), hex(cp)).toMatchObject({ kind: 'control', codePoint: cp, index: 2 });
    }
  });

  it('takes TAB and LF where lines are allowed, and no other control character (CR neither)', () => {
    // Act / Assess
    expect(textProblem('line one\n\tline two', { lines: true })).toBeUndefined();
    for (const cp of [...C0, ...C1].filter((c) => c !== 0x09 && c !== 0x0a)) {
      expect(textProblem(`a${String.fromCodePoint(cp)}`, { lines: true }), hex(cp)).toMatchObject({ kind: 'control', codePoint: cp });
    }
  });

  it('refuses each bidirectional override and isolate, on one line and over lines', () => {
    // Act / Assess
    for (const cp of BIDI) {
      expect(textProblem(`abc ${String.fromCodePoint(cp)}fed`), hex(cp)).toMatchObject({ kind: 'bidi', codePoint: cp, index: 4 });
      expect(textProblem(`abc\n${String.fromCodePoint(cp)}fed`, { lines: true }), hex(cp)).toMatchObject({ kind: 'bidi', codePoint: cp });
    }
  });

  it('refuses the noncharacters U+FDD0–U+FDEF and U+xFFFE/U+xFFFF of every plane', () => {
    // Act / Assess
    expect(NONCHARACTERS).toHaveLength(32 + 34);
    for (const cp of NONCHARACTERS) {
      expect(textProblem(`x${String.fromCodePoint(cp)}y`), hex(cp)).toMatchObject({ kind: 'noncharacter', codePoint: cp, index: 1 });
    }
  });

  it('refuses lone surrogates, high or low, and takes surrogate pairs', () => {
    // Act / Assess
    expect(textProblem('a\uD800')).toMatchObject({ kind: 'surrogate', codePoint: 0xd800, index: 1 });
    expect(textProblem('a\uDFFFb')).toMatchObject({ kind: 'surrogate', codePoint: 0xdfff, index: 1 });
    expect(textProblem('\uDC00\uD800')).toMatchObject({ kind: 'surrogate', codePoint: 0xdc00, index: 0 });
    expect(textProblem('🍷\uD83C\uDF77')).toBeUndefined();
  });

  it('takes ordinary multilingual text: accents, emoji, Arabic, Hebrew, CJK, and the bidi marks LRM and RLM', () => {
    // Prepare
    const samples = [
      'Château Margaux 2015',
      'Grüner Veltliner – Ried „Kellerberg“',
      '🍷🍇 Wine 👨‍👩‍👧 🇫🇷',
      'نبيذ أحمر جاف',
      'יין אדום יבש',
      '赤ワイン 红葡萄酒 레드 와인',
      'Ελληνικό κρασί, русское вино, हिन्दी',
      'Mixed: wine ‏(نبيذ)‎ ok',
      'NBSP\u00a0and\u2009thin space',
    ];

    // Act / Assess
    for (const sample of samples) {
      expect(textProblem(sample), sample).toBeUndefined();
      expect(textProblem(`${sample}\n${sample}`, { lines: true }), sample).toBeUndefined();
    }
  });
});

describe('the rule in the schemas: a 422 naming the field', () => {
  it('plainText names the field and the code point', () => {
    // Prepare
    const schema = z.strictObject({ title: plainText(z.string(), 'title') });

    // Act
    const error = refusal(schema, { title: 'a\u001b[31m' });

    // Assess
    expect(error?.param).toBe('title');
    expect(error?.message).toBe('title must not contain control characters (U+001B at character 2).');
  });

  it('attack: product name, brand and sku, supplier name, webhook and subscription descriptions, API key names refuse ESC, BEL and U+202E', () => {
    // Prepare
    const product = { category: 'wine', gtin: '4006381333931' };
    const cases: Array<[z.ZodType, (bad: string) => unknown, string]> = [
      [createProductSchema, (bad) => ({ ...product, name: bad }), 'name'],
      [createProductSchema, (bad) => ({ ...product, name: 'N', brand: bad }), 'brand'],
      [createProductSchema, (bad) => ({ ...product, name: 'N', sku: bad }), 'sku'],
      [updateProductSchema, (bad) => ({ name: bad }), 'name'],
      [createSupplierSchema, (bad) => ({ name: bad }), 'name'],
      [createEndpointSchema, (bad) => ({ source: 'headless-cms', description: bad }), 'description'],
      [createSubscriptionSchema, (bad) => ({ url: 'https://hooks.example.com/dpp', events: ['product.created'], description: bad }), 'description'],
      [createApiKeySchema, (bad) => ({ name: bad, scopes: ['products:read'] }), 'name'],
    ];

    for (const [schema, input, param] of cases) {
      for (const bad of ['Riesling\u001b[2J', 'Riesling\u0007', 'Riesling \u202Egnilseir']) {
        // Act
        const error = refusal(schema, input(bad));

        // Assess
        expect(error?.param, `${param} ${JSON.stringify(bad)}`).toBe(param);
        expect(error?.message).toMatch(new RegExp(`^${param} must not contain`));
      }
    }
  });

  it('attack: passport data strings of wine and food and of a battery refuse them, named by path', () => {
    // Prepare
    const productId = '0192f4a6-3b8c-7d2e-9f10-4a5b6c7d8e9f';

    // Act
    const producer = refusal(createPassportSchema, { productId, data: { producers: [{ name: 'Ok' }, { name: 'Evil\u202E' }] } });
    const ingredient = refusal(createPassportSchema, { productId, data: { ingredients: ['grapes', { text: { en: 'sugar\u0007' } }] } });
    const region = refusal(createPassportSchema, { productId, data: { origin: { region: 'Mosel\u009b' } } });
    const battery = refusal(batteryText('model'), 'Cell\u2066x');
    const batteryLines = batteryText('note', 1000, { multiLine: true });

    // Assess
    expect(producer?.param).toBe('data.producers[1].name');
    expect(ingredient?.param).toBe('data.ingredients[1].text.en');
    expect(region?.param).toBe('data.origin.region');
    expect(battery?.message).toMatch(/^model must not contain/);
    expect(refusal(batteryLines, 'line one\nline two\twith a tab')).toBeUndefined();
    expect(refusal(batteryLines, 'line one\r\nline two')?.message).toMatch(/^note must not contain control characters/);
    expect(refusal(batteryPassportDataSchema, {})).toBeUndefined();
  });

  it('attack: free-form batch and item data refuse them in any string, named by path', () => {
    // Act
    const nested = refusal(openUnitDataSchema, { colour: 'red', care: { washing: ['30 °C', 'no\u001b]0;pwned\u0007'] } });
    const surrogate = refusal(openUnitDataSchema, { fibre: 'cotton\uD800' });

    // Assess
    expect(nested?.param).toBe('care.washing[1]');
    expect(surrogate?.param).toBe('fibre');
    expect(refusal(openUnitDataSchema, { colour: 'rouge 🍷', size: 'XL', notes: ['نبيذ', '赤'] })).toBeUndefined();
  });

  it('attack: a corrected legal term and its note refuse every noncharacter and lone surrogate by name, and the note keeps its line breaks (issue 42)', () => {
    for (const cp of [...NONCHARACTERS, 0xd800, 0xdfff]) {
      // Act
      const text = refusal(putLabelTermSchema, { text: `Zutaten${String.fromCodePoint(cp)}` });
      const note = refusal(putLabelTermSchema, { text: 'Zutaten', note: `Per the notice\r\n${String.fromCodePoint(cp)}` });
      // Assess
      expect(text?.param, hex(cp)).toBe('text');
      expect(text?.message, hex(cp)).toMatch(new RegExp(`^text must not contain (Unicode noncharacters|lone surrogates) \\(${hex(cp).replace('+', '\\+')} at character 8\\)`));
      expect(note?.param, hex(cp)).toBe('note');
    }
    expect(refusal(putLabelTermSchema, { text: 'Zutaten 🍷', note: 'Per the notice\r\nline two\tand a tab' })).toBeUndefined();
  });
});
