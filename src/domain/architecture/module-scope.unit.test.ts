import { describe, expect, it } from 'vitest';
import { scopeModules } from './module-scope.ts';
import { mapOf } from './test-support/module-maps.ts';

describe('scopeModules', () => {
  it.each([
    {
      name: 'a module in the middle of the map',
      module: 'b',
      map: mapOf({ a: ['b'], b: ['c', 'd'], c: [], d: [], e: [] }),
      scope: { own: 'b', consumed: ['c', 'd'], consumers: ['a'], others: ['e'] },
    },
    {
      name: 'no module',
      module: null,
      map: mapOf({ b: [], a: [] }),
      scope: { own: null, consumed: [], consumers: [], others: ['a', 'b'] },
    },
    {
      name: 'a module absent from the map',
      module: 'x',
      map: mapOf({ b: [], a: [] }),
      scope: { own: null, consumed: [], consumers: [], others: ['a', 'b'] },
    },
    {
      name: 'a map that was never validated, with a two-module cycle: consumed wins, so it is shown in full',
      module: 'a',
      map: mapOf({ a: ['b'], b: ['a'] }),
      scope: { own: 'a', consumed: ['b'], consumers: [], others: [] },
    },
  ])('groups $name', ({ module, map, scope }) => {
    expect(scopeModules(module, map)).toEqual(scope);
  });
});
