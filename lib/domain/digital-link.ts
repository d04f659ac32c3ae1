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
export const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]+$/;

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

/**
 * A value as a path segment or query value of a canonical Digital Link: every character but the
 * URI's unreserved ones (`A–Z a–z 0–9 - . _ ~`) percent-encoded.
 */
export const encodeLinkValue = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The canonical path of a GTIN's Digital Link from `/01/` on: the GTIN-14, then the key
 * qualifiers it has in GS1's order (22, 10, 21; or 235), each value percent-encoded
 * (docs/resolver.md#canonical-uris).
 */
export function canonicalGtinPath(gtin14: string, qualifiers: Readonly<Record<string, string>>): string {
  let path = `/01/${gtin14}`;
  for (const ai of [...GTIN_QUALIFIERS.map(([q]) => q), TPX[0]]) {
    const value = qualifiers[ai];
    if (value !== undefined) path += `/${ai}/${encodeLinkValue(value)}`;
  }
  return path;
}

/** GS1 Digital Link primary keys: a link names exactly one. */
const PRIMARY_KEYS = new Set(['00', '01', '253', '255', '401', '402', '414', '417', '8003', '8004', '8006', '8010', '8013', '8017', '8018']);

export type UncompressedLink =
  /** `path`: from `/01/` on, its qualifiers in GS1's order; `query`: the other AIs then the other keys, '' when none. */
  | { ok: true; path: string; query: string }
  /** `other-key`: a link of another primary key than a GTIN; `invalid`: no valid link (a bad check digit, qualifiers GS1 does not allow together). */
  | { ok: false; kind: 'invalid' | 'other-key'; reason: string };

/**
 * The uncompressed form of a decompressed GTIN Digital Link (lib/domain/digital-link-compression.ts):
 * the GTIN and its key qualifiers in the path (checked as parseGtinPath checks an uncompressed
 * one), every other AI (data attributes) and key in the query string, in the order they were encoded.
 */
export function uncompressedGtinLink(
  elements: ReadonlyArray<readonly [string, string]>,
  extensions: ReadonlyArray<readonly [string, string]> = [],
): UncompressedLink {
  const keys = elements.filter(([ai]) => PRIMARY_KEYS.has(ai)).map(([ai]) => ai);
  if (keys.length !== 1) {
    return { ok: false, kind: 'invalid', reason: keys.length ? `It names ${keys.length} primary keys (${keys.join(', ')}); a link names one.` : 'It names no primary key.' };
  }
  if (keys[0] !== '01') return { ok: false, kind: 'other-key', reason: `This resolver resolves GTINs (AI 01); the link names AI ${keys[0]}.` };
  const qualifierAis = [...GTIN_QUALIFIERS.map(([q]) => q), TPX[0]];
  const qualifiers = elements.filter(([ai]) => qualifierAis.includes(ai)).sort(([a], [b]) => qualifierAis.indexOf(a) - qualifierAis.indexOf(b));
  const parsed = parseGtinPath(elements.find(([ai]) => ai === '01')?.[1] ?? '', qualifiers.flat());
  if (!parsed.ok) return { ok: false, kind: 'invalid', reason: parsed.reason };
  const query = [...elements.filter(([ai]) => ai !== '01' && !qualifierAis.includes(ai)), ...extensions]
    .map(([key, value]) => `${encodeLinkValue(key)}=${encodeLinkValue(value)}`)
    .join('&');
  return { ok: true, path: canonicalGtinPath(parsed.gtin14, parsed.qualifiers), query };
}
