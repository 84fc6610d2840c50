import { useEffect, useState } from 'react';
import { matchRoute, type Route } from './match-route.ts';
import { onPathChange } from './navigate.ts';

/** The current route, updated on navigation. */
export function useRoute(): Route {
  const [path, setPath] = useState(() => window.location.pathname);
  useEffect(() => onPathChange(() => setPath(window.location.pathname)), []);
  return matchRoute(path);
}
