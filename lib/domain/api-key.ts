import * as z from 'zod';
import { plainText } from './text.ts';
import { API_KEY_SCOPES, isScope, type Scope } from './scopes.ts';
import { ENVIRONMENTS } from './tenant.ts';

/** `key_` and 20 lower-case base-36 characters. */
export const KEY_ID_PATTERN = /^key_[0-9a-z]{20}$/;

/**
 * Scopes of a new key: at least one, each from the scope table (scopes.ts), never the session-only
 * `api_keys:manage`. Every problem is reported on `scopes`; duplicates are dropped.
 */
const scopesSchema = z
  .array(z.string({ error: 'scopes must be an array of scope names.' }).meta({ enum: [...API_KEY_SCOPES] }), {
    error: (issue) => (issue.input === undefined ? 'scopes is required.' : 'scopes must be an array of scope names.'),
  })
  .min(1, { error: 'scopes must name at least one scope.' })
  .transform((scopes, ctx): Scope[] => {
    const suggestion = `Use scopes from: ${API_KEY_SCOPES.join(', ')}.`;
    for (const scope of scopes) {
      if (scope === 'api_keys:manage') {
        ctx.addIssue({
          code: 'custom',
          message: 'api_keys:manage is session-only: an API key cannot manage API keys.',
          params: { suggestion },
        });
        return z.NEVER;
      }
      if (!isScope(scope)) {
        ctx.addIssue({ code: 'custom', message: `Unknown scope '${scope}'.`, params: { suggestion } });
        return z.NEVER;
      }
    }
    return [...new Set(scopes as Scope[])];
  });

export const createApiKeySchema = z.strictObject({
  name: plainText(
    z
      .string({ error: (issue) => (issue.input === undefined ? 'name is required.' : 'name must be a string.') })
      .trim()
      .min(1, { error: 'name must not be empty.' })
      .max(100, { error: 'name must be at most 100 characters.' })
      .regex(/\S/, { error: 'name must not be empty.' }),
    'name',
  ),
  scopes: scopesSchema,
  /** Defaults to the session's current environment. */
  environment: z.enum(ENVIRONMENTS, { error: `environment must be one of: ${ENVIRONMENTS.join(', ')}.` }).optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const listApiKeysQuerySchema = z.strictObject({
  environment: z.enum(ENVIRONMENTS, { error: `environment must be one of: ${ENVIRONMENTS.join(', ')}.` }).optional(),
});
