import { describe, expect, it } from 'vitest';
import { depthExceededAt, jsonBodyProblem, MAX_JSON_DEPTH } from '../../lib/http/json-depth.ts';
import { MAX_BODY_BYTES } from '../../lib/http/raw-body.ts';
import { ApiError } from '../../lib/http/errors.ts';
import { parseImportFile } from '../../lib/services/import-files.ts';

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

describe('jsonBodyProblem (duplicate keys and nesting in one pass, docs/security.md#parser-budgets)', () => {
  const scan = (text: string) => jsonBodyProblem(Buffer.from(text));

  it('attack: a top-level key sent twice is found, named, with the byte where it came again', () => {
    // Prepare
    const text = '{"name":"a","category":"wine","name":"b"}';

    // Act
    const problem = scan(text);

    // Assess
    expect(problem).toEqual({ kind: 'duplicate', key: 'name', path: ['name'], offset: text.lastIndexOf('"name"') });
  });

  it('names a duplicate in a nested object by its full path, array indexes included', () => {
    // Prepare
    const text = JSON.stringify({ data: { producers: [{ name: 'a' }, { name: 'b', role: 'producer' }] } }).replace('"role"', '"name"');

    // Act
    const problem = scan(text);

    // Assess
    expect(problem).toMatchObject({ kind: 'duplicate', key: 'name', path: ['data', 'producers', 1, 'name'] });
  });

  it('compares keys after JSON unescaping: "a" and "\\u0061" are the same key', () => {
    // Act / Assess
    expect(scan('{"a":1,"\\u0061":2}')).toMatchObject({ kind: 'duplicate', key: 'a', path: ['a'] });
    expect(scan('{"\\"q":1,"\\u0022q":2}')).toMatchObject({ kind: 'duplicate', key: '"q' });
    expect(scan('{"é":1,"\\u00e9":2}')).toMatchObject({ kind: 'duplicate', key: 'é' });
  });

  it('takes the same key in sibling objects, in each object of an array, at other levels and as a value', () => {
    // Prepare
    const honest = [
      JSON.stringify({ a: { name: 1 }, b: { name: 2 }, name: 3 }),
      JSON.stringify({ producers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
      JSON.stringify([{ name: 'a' }, { name: 'b' }]),
      JSON.stringify({ name: 'name', other: ['name', 'name'], list: { name: { name: 'name' } } }),
      JSON.stringify({ 'a{': 1, 'a"[': 2, 'a\\': 3, a: '},"a":' }),
    ];

    // Act / Assess
    for (const text of honest) expect(scan(text), text).toBeUndefined();
  });

  it('still refuses nesting past the budget, and keys differing only in letter case are distinct', () => {
    // Act / Assess
    expect(scan(nested(MAX_JSON_DEPTH).toString())).toBeUndefined();
    expect(scan(nested(MAX_JSON_DEPTH + 1).toString())).toEqual({ kind: 'depth', offset: MAX_JSON_DEPTH * '{"a":'.length });
    expect(scan('{"Name":1,"name":2}')).toBeUndefined();
  });

  it('attack: a body just over the 256 KiB budget of distinct keys, and one with its duplicate at the very end, are scanned in one pass', () => {
    // Prepare: about 26,000 distinct keys, then the first again
    const keys: string[] = [];
    for (let i = 0, length = 0; length <= MAX_BODY_BYTES; i++) {
      const member = `"k${i}":${i}`;
      keys.push(member);
      length += member.length + 1;
    }
    const distinct = Buffer.from(`{${keys.join(',')}}`);
    const duplicated = Buffer.from(`{${keys.join(',')},"k0":0}`);

    // Act
    const started = performance.now();
    const none = jsonBodyProblem(distinct);
    const found = jsonBodyProblem(duplicated);
    const elapsed = performance.now() - started;

    // Assess
    expect(distinct.length).toBeGreaterThan(MAX_BODY_BYTES);
    expect(none).toBeUndefined();
    expect(found).toMatchObject({ kind: 'duplicate', key: 'k0', path: ['k0'] });
    expect(elapsed).toBeLessThan(500);
  });
});

describe('a JSON Lines import (lib/services/import-files.ts)', () => {
  it('attack: a line holding a key twice is refused with 400 naming the line and the key', async () => {
    // Prepare
    const file = Buffer.from('{"gtin":"4006381333931","name":"a"}\n{"gtin":"4006381333931","passport":{"origin":{"region":"a","region":"b"}}}\n');

    // Act
    const refused = await parseImportFile(file, 'application/x-ndjson').then(
      () => undefined,
      (error: unknown) => error as ApiError,
    );

    // Assess
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused?.status).toBe(400);
    expect(refused?.param).toBe('passport.origin.region');
    expect(refused?.message).toMatch(/^Line 2 has the key 'region' twice/);
  });
});
