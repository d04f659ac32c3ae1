/**
 * How the OpenAPI document (lib/api/openapi.ts) writes a route's path, in a module of its own that
 * imports no schema: the contract check of the test suite maps each request to its documented path
 * with it, without building the document (docs/testing.md#the-local-stack-in-tests).
 */

/**
 * Greedy path parameters the document writes out as explicit path items, so that a validating
 * proxy (Prism) routes each real form: `{qualifiers+}` is every valid sequence of GTIN key
 * qualifiers (22, then 10, then 21, each at most once; or 235 alone; GS1 Digital Link).
 */
export const PATH_EXPANSIONS: Readonly<Record<string, readonly string[]>> = {
  qualifiers: [
    '22/{cpv}',
    '22/{cpv}/10/{lot}',
    '22/{cpv}/10/{lot}/21/{serial}',
    '22/{cpv}/21/{serial}',
    '10/{lot}',
    '10/{lot}/21/{serial}',
    '21/{serial}',
    '235/{tpx}',
  ],
};

/**
 * The document's paths for a route's path: a greedy `{name+}` with an entry in PATH_EXPANSIONS
 * becomes one path item per form it takes (the resolver's key qualifiers), any other is a plain
 * `{name}` (OpenAPI has no greedy parameter).
 */
export function documentPaths(path: string): string[] {
  const greedy = /\{(\w+)\+\}/.exec(path);
  const forms = greedy ? PATH_EXPANSIONS[greedy[1] ?? ''] : undefined;
  if (!greedy || !forms) return [path.replace(/\{(\w+)\+\}/g, '{$1}')];
  return forms.map((form) => path.replace(greedy[0], form));
}

/**
 * The document path a request path of `routePath` is: the expanded form it matches, or the first
 * form when it matches none (a malformed qualifier sequence, answered 400 by the same operation).
 */
export function documentPathOf(routePath: string, requestPath: string): string {
  const paths = documentPaths(routePath);
  const segments = requestPath.split('/').filter((s) => s !== '');
  const matches = (template: string) => {
    const parts = template.split('/').filter((s) => s !== '');
    return parts.length === segments.length && parts.every((part, i) => part.startsWith('{') || part === segments[i]);
  };
  return paths.find(matches) ?? (paths[0] as string);
}
