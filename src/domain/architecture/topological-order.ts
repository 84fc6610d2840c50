import { InvariantViolationError } from '../errors/index.ts';
import type { DeclarationRefusal } from './declaration-problems.ts';
import { compareText } from './module-cycles.ts';
import type { ModuleGraphInput } from './module-graph.ts';
import { validateModuleMap } from './module-graph.ts';

/** Module names with every module after all the modules it depends on, or why no such order exists. */
export type TopologicalOrder =
  | { readonly ok: true; readonly order: readonly string[] }
  | DeclarationRefusal;

/**
 * Orders the modules so that each comes after its dependencies (build and integration order: providers
 * first). Among modules ready at the same time the alphabetically first goes first, so the order depends
 * only on the graph, never on the order the map was written in. An invalid map gets its refusal instead.
 */
export function topologicalOrder(map: ModuleGraphInput): TopologicalOrder {
  const validation = validateModuleMap(map);
  if (!validation.ok) return validation;

  const waitingOn = new Map(map.modules.map((module) => [module.name, new Set(module.dependsOn)]));
  const order: string[] = [];
  while (waitingOn.size > 0) {
    const ready = [...waitingOn.entries()]
      .filter(([, dependencies]) => dependencies.size === 0)
      .map(([name]) => name)
      .sort(compareText);
    const next = ready[0];
    // validateModuleMap has ruled out cycles, so some module is always ready.
    if (next === undefined)
      throw new InvariantViolationError('topological_order', 'no module ready in a validated map');
    order.push(next);
    waitingOn.delete(next);
    for (const dependencies of waitingOn.values()) dependencies.delete(next);
  }
  return { ok: true, order };
}
