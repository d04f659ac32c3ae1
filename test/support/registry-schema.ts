import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * The CIRPASS-2 mock registry's JSON Schema of an entry (docs/registry.md#the-cirpass-2-mock), read
 * at test time from the workplace's shared folder beside the repository (`../shared/registry/`,
 * with its licence and origin). It is never copied into the repository: a missing file is an error
 * that says where it is expected.
 */
const SCHEMA_URL = new URL('../../../shared/registry/default-schema.json', import.meta.url);

/** Where the schema is expected, as a path. */
export const REGISTRY_SCHEMA_PATH = fileURLToPath(SCHEMA_URL);

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
let validator: ValidateFunction | undefined;

/** A validator of the schema at `path`; an Error saying where the schema is expected when it is not there. */
export function registryValidatorAt(path: string): ValidateFunction {
  if (!existsSync(path)) {
    throw new Error(
      `The CIRPASS-2 registry schema is not at ${path}: the tests expect default-schema.json in ../shared/registry/ beside the repository (docs/registry.md#the-cirpass-2-mock).`,
    );
  }
  const schema = JSON.parse(readFileSync(path, 'utf8')) as object;
  // The schema's deactivated is ["boolean", "null"]: a union type, which Ajv's strict mode only logs about.
  return addFormats(new Ajv2020({ allErrors: true, allowUnionTypes: true })).compile(schema);
}

function validate(): ValidateFunction {
  validator ??= registryValidatorAt(REGISTRY_SCHEMA_PATH);
  return validator;
}

/** The schema's errors for `value` as readable lines; empty when it validates. */
export function registryEntryErrors(value: unknown): string[] {
  const check = validate();
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
