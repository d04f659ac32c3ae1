import type { Route } from './routes.ts';

export type RouteMatch =
  | { kind: 'route'; route: Route; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'none' };

interface Compiled {
  route: Route;
  segments: string[];
}

/**
 * Matches requests to routes as API Gateway HTTP APIs do: segment by segment, a literal segment
 * beats `{param}`, which beats a greedy `{param+}`.
 */
export function createRouteMatcher(routes: readonly Route[]) {
  const compiled: Compiled[] = routes.map((route) => ({ route, segments: route.path.split('/').filter(Boolean) }));

  function matchPath(segments: string[], path: string[]): Record<string, string> | undefined {
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] ?? '';
      const greedy = /^\{(\w+)\+\}$/.exec(segment);
      if (greedy?.[1]) {
        if (i >= path.length) return undefined;
        params[greedy[1]] = path.slice(i).join('/');
        return params;
      }
      const value = path[i];
      if (value === undefined) return undefined;
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param?.[1]) params[param[1]] = value;
      else if (segment !== value) return undefined;
    }
    return segments.length === path.length ? params : undefined;
  }

  /** Lower is more specific. */
  const rank = (segments: string[]): number[] =>
    segments.map((s) => (/^\{\w+\+\}$/.test(s) ? 2 : /^\{\w+\}$/.test(s) ? 1 : 0));

  function compareRank(a: number[], b: number[]): number {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const diff = (a[i] ?? 3) - (b[i] ?? 3);
      if (diff !== 0) return diff;
    }
    return 0;
  }

  return (method: string, rawPath: string): RouteMatch => {
    let path: string[];
    try {
      path = rawPath.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      return { kind: 'none' };
    }
    const candidates = compiled
      .map((c) => ({ c, params: matchPath(c.segments, path) }))
      .filter((m): m is { c: Compiled; params: Record<string, string> } => m.params !== undefined)
      .sort((a, b) => compareRank(rank(a.c.segments), rank(b.c.segments)));
    if (candidates.length === 0) return { kind: 'none' };
    const best = rank(candidates[0]?.c.segments ?? []);
    const samePath = candidates.filter((m) => compareRank(rank(m.c.segments), best) === 0);
    const hit = samePath.find((m) => m.c.route.method === method);
    if (hit) return { kind: 'route', route: hit.c.route, pathParameters: hit.params };
    return { kind: 'method-not-allowed', allowed: [...new Set(samePath.map((m) => m.c.route.method))] };
  };
}
