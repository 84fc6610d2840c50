import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDependencyCycles } from './module-cycles.ts';
import { validateModuleMap } from './module-graph.ts';
import {
  acyclicMapArbitrary,
  mapOf,
  reachableFrom,
  shuffledMapArbitrary,
} from './test-support/module-maps.ts';

describe('validateModuleMap', () => {
  it.each([
    { name: 'a single module', map: mapOf({ a: [] }) },
    { name: 'a chain', map: mapOf({ a: ['b'], b: ['c'], c: [] }) },
    { name: 'a diamond', map: mapOf({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }) },
  ])('accepts $name', ({ map }) => {
    expect(validateModuleMap(map)).toEqual({ ok: true });
  });

  it.each([
    {
      rule: 'repeated module name',
      map: mapOf({ a: [] }).modules.concat(mapOf({ a: [] }).modules),
      code: 'repeated_module',
      path: 'modules[1].name',
      message:
        'module "a" is declared more than once (first at modules[0]); each module appears once',
    },
    {
      rule: 'dependency on an unknown module, naming module and dependency',
      map: mapOf({ a: ['ghost'], b: [] }).modules,
      code: 'unknown_dependency',
      path: 'modules[0].dependsOn[0]',
      message: 'module "a" depends on "ghost", which is not a module of this map; modules: a, b',
    },
    {
      rule: 'self-dependency',
      map: mapOf({ a: ['a'] }).modules,
      code: 'self_dependency',
      path: 'modules[0].dependsOn[0]',
      message: 'module "a" depends on itself',
    },
    {
      rule: 'repeated dependency',
      map: mapOf({ a: ['b', 'b'], b: [] }).modules,
      code: 'repeated_dependency',
      path: 'modules[0].dependsOn[1]',
      message: '"b" is listed more than once in dependsOn of "a"',
    },
    {
      rule: 'a cycle, named',
      map: mapOf({ c: ['a'], b: ['c'], a: ['b'] }).modules,
      code: 'dependency_cycle',
      path: 'modules',
      message:
        'dependency cycle a → b → c → a; the map must be acyclic — remove one of these dependencies',
    },
  ])('refuses a $rule', ({ map, code, path, message }) => {
    const result = validateModuleMap({ modules: map });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([{ code, path, message }]);
    expect(result.reason).toContain(`${path}: ${message}`);
  });

  it('reports every problem at once, in document order', () => {
    const result = validateModuleMap(mapOf({ a: ['b', 'x'], b: ['a', 'b'] }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => `${problem.code}@${problem.path}`)).toEqual([
      'dependency_cycle@modules',
      'unknown_dependency@modules[0].dependsOn[1]',
      'self_dependency@modules[1].dependsOn[1]',
    ]);
    expect(result.reason.split('\n')[0]).toBe(
      'declare_module_map refused (3 problems); nothing was recorded.',
    );
  });

  it('names one cycle per tangled group, each from its alphabetically first module', () => {
    const result = validateModuleMap(
      mapOf({ z: ['y'], y: ['z'], c: ['a'], a: ['b'], b: ['c', 'a'], free: [] }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.message.split(';')[0])).toEqual([
      'dependency cycle a → b → a',
      'dependency cycle y → z → y',
    ]);
  });
});

describe('findDependencyCycles', () => {
  it('prefers the shortest way back, then alphabetical dependencies', () => {
    const edges = new Map([
      ['a', ['d', 'b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findDependencyCycles(edges)).toEqual([['a', 'd', 'a']]);
  });

  it('does not count a self-dependency as a cycle (it has its own refusal)', () => {
    expect(findDependencyCycles(new Map([['a', ['a']]]))).toEqual([]);
  });
});

describe('module graph properties', () => {
  it('accepts every acyclic map', () => {
    fc.assert(fc.property(acyclicMapArbitrary, (map) => validateModuleMap(map).ok));
  });

  it('refuses an acyclic map plus a back edge, naming a cycle made of real edges through that back edge’s group', () => {
    const withBackEdge = acyclicMapArbitrary
      .filter((map) => map.modules.some((module) => module.dependsOn.length > 0))
      .chain((map) => {
        const pairs = map.modules.flatMap((module) =>
          [...reachableFrom(map, module.name)].map((target) => [module.name, target] as const),
        );
        return fc.constantFrom(...pairs).map(([from, to]) => ({
          version: map.version,
          modules: map.modules.map((module) =>
            module.name === to ? { ...module, dependsOn: [...module.dependsOn, from] } : module,
          ),
        }));
      });
    fc.assert(
      fc.property(withBackEdge, (map) => {
        const result = validateModuleMap(map);
        if (result.ok) return false;
        const cycles = result.problems.filter((problem) => problem.code === 'dependency_cycle');
        expect(cycles).toHaveLength(1);
        const walk =
          /dependency cycle (.+?);/.exec(cycles[0]?.message ?? '')?.[1]?.split(' → ') ?? [];
        expect(walk.length).toBeGreaterThanOrEqual(3);
        expect(walk[0]).toBe(walk.at(-1));
        const edges = new Map(map.modules.map((module) => [module.name, module.dependsOn]));
        for (let step = 0; step + 1 < walk.length; step += 1) {
          expect(edges.get(walk[step] as string)).toContain(walk[step + 1]);
        }
        return true;
      }),
    );
  });

  it('gives the same verdict and reason whatever the order of modules and dependencies', () => {
    const cyclicOrNot = acyclicMapArbitrary.chain((map) =>
      fc.boolean().map((addCycle) => {
        const [first, second] = map.modules;
        if (!addCycle || first === undefined || second === undefined) return map;
        return {
          ...map,
          modules: map.modules.map((module) =>
            module.name === first.name
              ? { ...module, dependsOn: [...new Set([...module.dependsOn, second.name])] }
              : module.name === second.name
                ? { ...module, dependsOn: [...new Set([...module.dependsOn, first.name])] }
                : module,
          ),
        };
      }),
    );
    fc.assert(
      fc.property(
        cyclicOrNot.chain((map) => fc.tuple(fc.constant(map), shuffledMapArbitrary(map))),
        ([map, shuffled]) => {
          const left = validateModuleMap(map);
          const right = validateModuleMap(shuffled);
          expect(right.ok).toBe(left.ok);
          if (!left.ok && !right.ok) {
            const cyclesOf = (problems: typeof left.problems) =>
              problems
                .filter((problem) => problem.code === 'dependency_cycle')
                .map((problem) => problem.message);
            expect(cyclesOf(right.problems)).toEqual(cyclesOf(left.problems));
          }
        },
      ),
    );
  });
});
