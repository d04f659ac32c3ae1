import { normalizeGtin } from './gtin.ts';
import type { Tenant } from './tenant.ts';

/**
 * The GS1 Digital Link URI printed on a product: `{origin}/{orgId}/{environment}/01/{gtin14}`.
 * The path before `/01/` is a custom path, which the Digital Link syntax allows; it names the
 * tenant so that the resolver finds the passport with one read. It never changes once issued.
 * On an organization's verified brand domain the live form is `https://{hostname}/01/{gtin14}`
 * (lib/domain/domain.ts), which the resolver routes by Host (docs/resolver.md).
 */
export function digitalLinkUri(resolverOrigin: string, tenant: Tenant, gtin14: string): string {
  return `${resolverOrigin.replace(/\/+$/, '')}/${tenant.orgId}/${tenant.environment}/01/${gtin14}`;
}

/** Key qualifiers of a GTIN (AI 01), in the order GS1 Digital Link requires, with their maximum lengths. */
const GTIN_QUALIFIERS: ReadonlyArray<readonly [ai: string, maxLength: number]> = [
  ['22', 20],
  ['10', 20],
  ['21', 20],
];
const TPX = ['235', 28] as const;

/** GS1 AI encodable character set 82. */
const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]+$/;

export type ParsedLink =
  | { ok: true; gtin14: string; qualifiers: Record<string, string> }
  | { ok: false; reason: string };

/**
 * Validates the part of a GS1 Digital Link URI from the GTIN on: `{gtin}` then the path segments
 * after it, as `{ai}`, `{value}` qualifier pairs (22 → 10 → 21, or 235 alone), each segment
 * already percent-decoded.
 */
export function parseGtinPath(gtin: string, segments: readonly string[] = []): ParsedLink {
  const key = normalizeGtin(gtin);
  if (!key.ok) return { ok: false, reason: `The GTIN is invalid: ${key.reason}` };
  if (segments.length % 2 !== 0) return { ok: false, reason: 'Key qualifiers come in pairs: /{AI}/{value}.' };
  const qualifiers: Record<string, string> = {};
  let position = -1;
  for (let i = 0; i < segments.length; i += 2) {
    const ai = segments[i] ?? '';
    const value = segments[i + 1] ?? '';
    const index = GTIN_QUALIFIERS.findIndex(([q]) => q === ai);
    const isTpx = ai === TPX[0] && segments.length === 2;
    if (index < 0 && !isTpx) return { ok: false, reason: `'${ai}' is not a key qualifier of a GTIN here (22, 10, 21, or 235 alone).` };
    if (index >= 0 && index <= position) return { ok: false, reason: 'Key qualifiers must appear once each, in the order 22, 10, 21.' };
    const maxLength = isTpx ? TPX[1] : (GTIN_QUALIFIERS[index]?.[1] ?? 0);
    if (value.length > maxLength || !CSET82.test(value)) {
      return { ok: false, reason: `The value of AI ${ai} must be 1 to ${maxLength} characters of GS1 character set 82.` };
    }
    position = index;
    qualifiers[ai] = value;
  }
  return { ok: true, gtin14: key.gtin14, qualifiers };
}
