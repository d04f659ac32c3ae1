// The matcher lives in lib/api/route-matcher.ts: the resolver routes function URL events with it too.
export { createRouteMatcher, type RouteMatch } from '../../lib/api/route-matcher.ts';
