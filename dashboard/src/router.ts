import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './routes.ts';

export { href, parseRoute, type Route } from './routes.ts';

export const navigate = (target: string): void => {
  window.location.hash = target.replace(/^#/, '');
};

/** The current route, following hash changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
