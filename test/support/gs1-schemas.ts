import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Validators for the project's own JSON schemas of what a GS1-Conformant resolver answers
 * (test/support/schemas/, written from the standard's text: docs/resolver.md).
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true }));
const load = (name: string) => JSON.parse(readFileSync(new URL(`./schemas/${name}`, import.meta.url), 'utf8')) as object;

const linksetValidator = ajv.compile(load('gs1-linkset.schema.json'));
const descriptionValidator = ajv.compile(load('resolver-description.schema.json'));

/** The schema's errors for `value` as readable lines; empty when it validates. */
function errorsOf(validate: typeof linksetValidator, value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

export const linksetErrors = (value: unknown): string[] => errorsOf(linksetValidator, value);
export const descriptionErrors = (value: unknown): string[] => errorsOf(descriptionValidator, value);
