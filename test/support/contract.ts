import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { inject } from 'vitest';
import { createRouteMatcher } from '../../infra/local/route-matcher.ts';
import { ROUTES } from '../../lib/api/routes.ts';
import { documentPathOf } from '../../lib/api/document-paths.ts';
import type { OpenApiDocument } from '../../lib/api/openapi.ts';

/**
 * The contract test: every response the integration suite receives through `call()` is checked
 * against the OpenAPI document: its status must be one the operation declares, and its body must
 * validate against the declared schema for its content type. The document is built once, by the
 * global setup (test/support/global-setup.ts), not in each test file's worker.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
let document: OpenApiDocument | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();
const match = createRouteMatcher(ROUTES);

function validator(pointer: string, schema: Record<string, unknown>): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    ajv ??= addFormats(new Ajv2020({ strict: false, allErrors: true }));
    // The schema's `#/components/…` references resolve against the document's components.
    validate = ajv.compile({ ...schema, components: (document as OpenApiDocument).components });
    validators.set(pointer, validate);
  }
  return validate;
}

export function checkContract(method: string, url: string, status: number, contentType: string, body: unknown): void {
  document ??= inject('openapi');
  const path = new URL(url).pathname;
  const found = match(method, path);
  if (found.kind !== 'route') return; // the gateway's own answers (unknown path, 405, /health)
  const openApiPath = documentPathOf(found.route.path, path);
  const operation = document.paths[openApiPath]?.[method.toLowerCase()];
  if (!operation) throw new Error(`contract: ${method} ${openApiPath} is not in the OpenAPI document`);
  const answer = operation.responses[String(status)];
  if (!answer) {
    throw new Error(`contract: ${method} ${openApiPath} answered ${status}, which the OpenAPI document does not declare (${Object.keys(operation.responses).join(', ')})`);
  }
  const mediaType = contentType.split(';')[0]?.trim() ?? '';
  const schema = answer.content?.[mediaType]?.schema;
  if (!schema || typeof body === 'string') return;
  const validate = validator(`${openApiPath} ${method} ${status} ${mediaType}`, schema);
  if (!validate(body)) {
    throw new Error(`contract: ${method} ${path} ${status} does not match its schema: ${ajv?.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}
