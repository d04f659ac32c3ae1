import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * The CIRPASS-2 mock registry's JSON Schema of an entry (docs/registry.md#the-cirpass-2-mock), read
 * at test time from the workplace's shared folder beside the repository (`../shared/registry/`,
 * with its licence and origin). It is never copied into the repository: a missing file is an error
 * that says where it is expected.
 */
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const RELATIVE = join('shared', 'registry', 'default-schema.json');

/**
 * Where the schema is: REGISTRY_SCHEMA when set; else `../shared/registry/` beside this repository;
 * else beside the repository this one was cloned from when that is a folder on this machine (a
 * fresh clone in a temporary folder, as CI makes, finds the workplace's shared folder there).
 */
function schemaPath(): string {
  if (process.env.REGISTRY_SCHEMA) return process.env.REGISTRY_SCHEMA;
  const beside = join(REPOSITORY, '..', RELATIVE);
  if (existsSync(beside)) return beside;
  try {
    const origin = execFileSync('git', ['-C', REPOSITORY, 'remote', 'get-url', 'origin'], { encoding: 'utf8' }).trim();
    const fromOrigin = isAbsolute(origin) ? join(origin, '..', RELATIVE) : undefined;
    if (fromOrigin && existsSync(fromOrigin)) return fromOrigin;
  } catch {
    // No git, or no origin: the path beside this repository is the one named in the error.
  }
  return beside;
}

/** Where the schema is expected, as a path. */
export const REGISTRY_SCHEMA_PATH = schemaPath();

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
