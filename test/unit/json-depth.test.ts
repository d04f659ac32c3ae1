import { describe, expect, it } from 'vitest';
import { depthExceededAt, MAX_JSON_DEPTH } from '../../lib/http/json-depth.ts';

const nested = (depth: number, open = '{"a":', close = '}'): Buffer => Buffer.from(`${open.repeat(depth)}1${close.repeat(depth)}`);

describe('depthExceededAt (the JSON body nesting budget, docs/security.md#parser-budgets)', () => {
  it('takes a body nested exactly to the budget and refuses one level more, at the byte that went too deep', () => {
    // Prepare
    const atBudget = nested(MAX_JSON_DEPTH);
    const justOver = nested(MAX_JSON_DEPTH + 1);

    // Act / Assess
    expect(depthExceededAt(atBudget)).toBeUndefined();
    expect(depthExceededAt(justOver)).toBe(MAX_JSON_DEPTH * '{"a":'.length);
  });

  it('counts arrays and objects alike', () => {
    // Prepare
    const mixed = Buffer.from(`${'[{"a":'.repeat(17)}1${'}]'.repeat(17)}`);

    // Act / Assess: 34 levels
    expect(depthExceededAt(mixed)).toBeDefined();
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    // Prepare: a name full of brackets and an escaped quote followed by more brackets
    const text = Buffer.from(JSON.stringify({ name: `${'{['.repeat(100)}\\"${'[{'.repeat(100)}` }));

    // Act / Assess
    expect(depthExceededAt(text)).toBeUndefined();
  });

  it('attack: 200,000 levels of {"a": are refused in one pass, without recursion', () => {
    // Prepare
    const deep = nested(200_000);

    // Act
    const offset = depthExceededAt(deep);

    // Assess
    expect(offset).toBe(MAX_JSON_DEPTH * '{"a":'.length);
  });
});
