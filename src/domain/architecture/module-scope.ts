import type { ModuleMap } from './module-map-schema.ts';
import { compareText } from './module-cycles.ts';

/** How a module of the map stands to the dev's module. */
export type ModuleRelation = 'own' | 'consumed' | 'consumer' | 'other';

/** The map's modules grouped around one module, each group sorted by name. */
export type ModuleScope = {
  readonly own: string | null;
  readonly consumed: readonly string[];
  readonly consumers: readonly string[];
  readonly others: readonly string[];
};

/**
 * Groups the map around `module`: what it consumes is its `dependsOn` in the current map, who consumes it is
 * every module whose `dependsOn` names it. Consumption is derived here, never written in the contract
 * (record ADR 0200). Direct dependencies only: a dev calls what its module uses, not what those use in turn.
 * With no module, or one absent from the map, every module is in `others`.
 */
export function scopeModules(module: string | null, map: ModuleMap): ModuleScope {
  const names = map.modules.map((entry) => entry.name).sort(compareText);
  const own = map.modules.find((entry) => entry.name === module);
  if (own === undefined) return { own: null, consumed: [], consumers: [], others: names };

  const consumed = new Set(
    own.dependsOn.filter((name) => name !== own.name && names.includes(name)),
  );
  const consumers = new Set(
    map.modules
      .filter((entry) => entry.name !== own.name && entry.dependsOn.includes(own.name))
      .map((entry) => entry.name),
  );
  return {
    own: own.name,
    consumed: [...consumed].sort(compareText),
    // A module both consumed and consuming would be a cycle; the consumed side wins, so it is shown in full.
    consumers: [...consumers].filter((name) => !consumed.has(name)).sort(compareText),
    others: names.filter(
      (name) => name !== own.name && !consumed.has(name) && !consumers.has(name),
    ),
  };
}

/** The relation of `name` within a scope. */
export function relationIn(scope: ModuleScope, name: string): ModuleRelation {
  if (name === scope.own) return 'own';
  if (scope.consumed.includes(name)) return 'consumed';
  if (scope.consumers.includes(name)) return 'consumer';
  return 'other';
}
