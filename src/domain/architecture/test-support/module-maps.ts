import fc from 'fast-check';
import type { ModuleContracts } from '../module-contracts-schema.ts';
import type { ModuleMap } from '../module-map-schema.ts';

/** Builds a map from `{ name: dependsOn }`, in the order the keys are written. */
export function mapOf(
  dependencies: Readonly<Record<string, readonly string[]>>,
  version = 1,
): ModuleMap {
  return {
    version,
    modules: Object.entries(dependencies).map(([name, dependsOn]) => ({
      name,
      stack: 'TypeScript',
      responsibility: `Responsibility of ${name}`,
      dependsOn: [...dependsOn],
    })),
  };
}

/** A contracts declaration with `count` distinct `funcao` items per module: `<module>.f<i>()`. */
export function contractsOf(
  itemCounts: Readonly<Record<string, number>>,
  version = 1,
): ModuleContracts {
  return {
    version,
    contratos: Object.entries(itemCounts).map(([modulo, count]) => ({
      modulo,
      expoe: Array.from({ length: count }, (_, index) => ({
        tipo: 'funcao' as const,
        assinatura: `${modulo}.f${index}()`,
      })),
    })),
  };
}

/** Distinct valid module names, deliberately not in alphabetical order of creation. */
const NAME_POOL = [
  'piece-catalog',
  'board-engine',
  'scoring',
  'retro-renderer',
  'input-keyboard',
  'game-session',
  'persistence',
  'audio',
  'zeta',
  'alpha_1',
  'm2',
  'm10',
];

/**
 * A random acyclic map: modules get a random rank and may only depend on modules of lower rank, so any
 * generated map is a DAG. Module and dependency order are shuffled.
 */
export const acyclicMapArbitrary: fc.Arbitrary<ModuleMap> = fc
  .integer({ min: 1, max: NAME_POOL.length })
  .chain((size) =>
    fc.tuple(
      fc.shuffledSubarray(NAME_POOL, { minLength: size, maxLength: size }),
      fc.array(fc.array(fc.boolean(), { minLength: size, maxLength: size }), {
        minLength: size,
        maxLength: size,
      }),
    ),
  )
  .chain(([names, wantsEdge]) => {
    const dependencies: Record<string, string[]> = {};
    names.forEach((name, rank) => {
      dependencies[name] = names.filter(
        (_, lower) => lower < rank && wantsEdge[rank]?.[lower] === true,
      );
    });
    return fc
      .shuffledSubarray(names, { minLength: names.length, maxLength: names.length })
      .map((order) =>
        mapOf(Object.fromEntries(order.map((name) => [name, dependencies[name] ?? []]))),
      );
  });

/** The same map with modules and each dependsOn list in another order. */
export function shuffledMapArbitrary(map: ModuleMap): fc.Arbitrary<ModuleMap> {
  const size = map.modules.length;
  return fc
    .tuple(
      fc.shuffledSubarray(map.modules, { minLength: size, maxLength: size }),
      fc.func(fc.integer()),
    )
    .map(([modules, key]) => ({
      version: map.version,
      modules: modules.map((module) => ({
        ...module,
        dependsOn: [...module.dependsOn].sort(
          (left, right) => key(left) - key(right) || (left < right ? -1 : 1),
        ),
      })),
    }));
}

/** Names reachable from `start` through dependsOn (excluding `start` unless on a cycle). */
export function reachableFrom(map: ModuleMap, start: string): Set<string> {
  const byName = new Map(map.modules.map((module) => [module.name, module.dependsOn]));
  const seen = new Set<string>();
  const stack = [...(byName.get(start) ?? [])];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    stack.push(...(byName.get(name) ?? []));
  }
  return seen;
}
