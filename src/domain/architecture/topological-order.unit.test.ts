import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topologicalOrder } from './topological-order.ts';
import { acyclicMapArbitrary, mapOf, shuffledMapArbitrary } from './test-support/module-maps.ts';

describe('topologicalOrder', () => {
  it.each([
    { name: 'a chain', map: mapOf({ a: ['b'], b: ['c'], c: [] }), order: ['c', 'b', 'a'] },
    {
      name: 'independent modules, alphabetically',
      map: mapOf({ z: [], m: [], a: [] }),
      order: ['a', 'm', 'z'],
    },
    {
      name: 'a diamond',
      map: mapOf({ app: ['ui', 'core'], ui: ['core'], core: [] }),
      order: ['core', 'ui', 'app'],
    },
  ])('orders $name with dependencies first', ({ map, order }) => {
    expect(topologicalOrder(map)).toEqual({ ok: true, order });
  });

  it('returns the refusal of a cyclic map instead of an order', () => {
    const result = topologicalOrder(mapOf({ a: ['b'], b: ['a'] }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain('dependency cycle a → b → a');
  });

  it('puts every module after its dependencies, for any acyclic map', () => {
    fc.assert(
      fc.property(acyclicMapArbitrary, (map) => {
        const result = topologicalOrder(map);
        if (!result.ok) return false;
        expect([...result.order].sort()).toEqual(map.modules.map((module) => module.name).sort());
        const position = new Map(result.order.map((name, index) => [name, index]));
        for (const module of map.modules) {
          for (const dependency of module.dependsOn) {
            expect(position.get(dependency)).toBeLessThan(position.get(module.name) as number);
          }
        }
        return true;
      }),
    );
  });

  it('depends only on the graph, not on the order the map was written in', () => {
    fc.assert(
      fc.property(
        acyclicMapArbitrary.chain((map) => fc.tuple(fc.constant(map), shuffledMapArbitrary(map))),
        ([map, shuffled]) => {
          expect(topologicalOrder(shuffled)).toEqual(topologicalOrder(map));
        },
      ),
    );
  });
});
