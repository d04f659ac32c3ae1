import type { z } from 'zod';
import { InvalidRequestError, ValidationError } from './errors.ts';

type Issue = z.core.$ZodIssue;

/** `['data', 'producers', 0, 'name']` → `data.producers[0].name`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, segment) => {
    if (typeof segment === 'number') return `${out}[${segment}]`;
    const name = String(segment);
    return out === '' ? name : `${out}.${name}`;
  }, '');
}

/** Examples of the string formats zod names, for suggestions in plain words. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  uuid: 'a UUID, such as 0192f4a6-3b8c-7d2e-9f10-4a5b6c7d8e9f',
  guid: 'a UUID, such as 0192f4a6-3b8c-7d2e-9f10-4a5b6c7d8e9f',
  email: 'an email address, such as name@example.com',
  url: 'an absolute URL, such as https://example.com/page',
  date: 'a date, such as 2026-01-31',
  datetime: 'a date and time, such as 2026-01-31T12:00:00Z',
};

const article = (type: string): string => (type === 'int' ? 'an integer' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function suggestionFor(issue: Issue, param: string): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `Send ${param} as ${article(issue.expected)}.`;
    case 'invalid_value':
      return issue.values.length <= 12 ? `Use one of: ${issue.values.map(String).join(', ')}.` : undefined;
    case 'too_big':
      return `Send at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}.`;
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1
        ? `Send a non-empty ${param}, or leave it out when it is optional.`
        : `Send at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : ''}.`;
    case 'invalid_format': {
      // A pattern says nothing to a person: the message of such a rule names it in words.
      const example = FORMAT_EXAMPLES[issue.format];
      return example ? `Send ${param} as ${example}.` : undefined;
    }
    case 'custom':
      return typeof issue.params?.suggestion === 'string' ? issue.params.suggestion : undefined;
    default:
      return undefined;
  }
}

/**
 * The message of an issue whose schema gives none, as a plain sentence naming the field (instead of
 * zod's "Invalid string: must match pattern …"). A schema's own `error` option comes first.
 */
export function plainMessage(issue: z.core.$ZodRawIssue): string {
  const param = formatPath(issue.path ?? []) || 'The request';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `${param} is required.` : `${param} must be ${article(issue.expected)}.`;
    case 'invalid_value':
      return issue.values.length <= 12 ? `${param} must be one of: ${issue.values.map(String).join(', ')}.` : `${param} is not one of the allowed values.`;
    case 'too_big':
      return issue.origin === 'string'
        ? `${param} must be at most ${String(issue.maximum)} characters.`
        : issue.origin === 'array'
          ? `${param} may hold at most ${String(issue.maximum)} ${issue.maximum === 1 ? 'item' : 'items'}.`
          : `${param} must be at most ${String(issue.maximum)}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? issue.minimum === 1
          ? `${param} must not be empty.`
          : `${param} must be at least ${String(issue.minimum)} characters.`
        : issue.origin === 'array'
          ? `${param} must hold at least ${String(issue.minimum)} ${issue.minimum === 1 ? 'item' : 'items'}.`
          : `${param} must be at least ${String(issue.minimum)}.`;
    case 'invalid_format': {
      const example = FORMAT_EXAMPLES[issue.format];
      return example ? `${param} must be ${example}.` : `${param} is not in the form the API reference gives for it.`;
    }
    case 'not_multiple_of':
      return `${param} must be a multiple of ${String(issue.divisor)}.`;
    case 'unrecognized_keys':
      return `Unknown field '${issue.keys[0] ?? ''}'.`;
    default:
      return `${param} is invalid.`;
  }
}

/**
 * One zod issue as a 422 whose `param` is the full path of the offending field. An unknown field
 * is reported first: it is usually a misspelling, which also makes the intended field look missing.
 */
export function toValidationError(error: z.ZodError, prefix: readonly PropertyKey[] = []): ValidationError {
  return fromIssues(error.issues, prefix);
}

function fromIssues(issues: readonly Issue[], prefix: readonly PropertyKey[]): ValidationError {
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
  if (issue?.code === 'invalid_union') {
    // Report from the alternative the value was meant for: the one that got past its type check.
    const branch = issue.errors.find((b) => b.length > 0 && !(b[0]?.code === 'invalid_type' && b[0].path.length === 0));
    if (branch) return fromIssues(branch, [...prefix, ...issue.path]);
  }
  if (issue === undefined) return new ValidationError('The request is invalid.', formatPath(prefix));
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const param = formatPath([...path, issue.keys[0] ?? '']);
    // A schema may say where such a field belongs by a message that begins with the field's name (lib/domain/battery/index.ts: an item's batteryTechicalProperties).
    const explained = issue.keys[0] !== undefined && issue.message.startsWith(`${issue.keys[0]} `);
    return new ValidationError(
      explained ? `Unknown field '${param}': ${issue.message}` : `Unknown field '${param}'.`,
      param,
      explained ? issue.message : 'Remove the field, or check its spelling and letter case against the API reference.',
    );
  }
  const param = formatPath(path);
  return new ValidationError(issue.message, param, suggestionFor(issue, param));
}

/** Parse `input` with `schema`, or throw a 422 naming the first offending field. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(input, { error: plainMessage });
  if (result.success) return result.data;
  throw toValidationError(result.error, prefix);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON body must be an object before its fields are validated. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (!isPlainObject(body)) {
    throw new InvalidRequestError('The request body must be a JSON object.', {
      suggestion: 'Send an object such as {"name": "…"}.',
    });
  }
  return parseOrThrow(schema, body);
}

/**
 * Query parameters: an unknown name is a 400 (docs/decisions.md#unknown-query-parameters-are-a-400); an invalid value a 422 naming
 * the parameter.
 */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  query: Record<string, string | undefined> | undefined,
  allowed: readonly string[],
): z.output<S> {
  const params = query ?? {};
  for (const name of Object.keys(params)) {
    if (!allowed.includes(name)) {
      throw new InvalidRequestError(`Unknown query parameter '${name}'.`, {
        param: name,
        suggestion: allowed.length ? `Allowed query parameters: ${allowed.join(', ')}.` : 'This endpoint takes no query parameters.',
      });
    }
  }
  return parseOrThrow(schema, params);
}
