import type { DeclarationRefusal, ProblemAtPath } from './declaration-problems.ts';
import { compareText, findDependencyCycles, formatCycle } from './module-cycles.ts';
import { refuseDeclaration } from './refusal.ts';

/** The part of a module map the graph rules read. */
export type ModuleGraphInput = {
  readonly modules: readonly { readonly name: string; readonly dependsOn: readonly string[] }[];
};

/** The map is a graph the rest of the line can rely on, or the full reason it is not. */
export type ModuleMapValidation = { readonly ok: true } | DeclarationRefusal;

/** Field order of `declare_module_map` arguments, for ordering problems as the model wrote them. */
export const MODULE_MAP_FIELD_ORDER = [
  'version',
  'modules',
  'name',
  'stack',
  'responsibility',
  'dependsOn',
] as const;

/**
 * Checks the rules that make a module map a usable dependency graph: unique names, no dependency on an
 * unknown module (naming both), no self-dependency, no repeated dependency, no cycle (naming one cycle per
 * tangled group, deterministically). All problems are reported, not only the first.
 */
export function validateModuleMap(map: ModuleGraphInput): ModuleMapValidation {
  const problems = moduleGraphProblems(map.modules).map((problem) => ({
    ...problem,
    path: ['modules', ...problem.path],
  }));
  return problems.length === 0
    ? { ok: true }
    : refuseDeclaration('declare_module_map', problems, MODULE_MAP_FIELD_ORDER);
}

type GraphEntry = {
  readonly index: number;
  readonly name: string;
  readonly dependsOn: readonly (string | undefined)[];
};

/**
 * Graph problems with paths relative to the `modules` list. Reads the list defensively (malformed entries are
 * skipped, their shape is reported elsewhere) so graph problems are reported in the same turn as shape ones.
 */
export function moduleGraphProblems(modules: readonly unknown[]): ProblemAtPath[] {
  const entries = readEntries(modules);
  const known = [...new Set(entries.map((entry) => entry.name))].sort(compareText);
  const knownNames = new Set(known);
  const firstIndexByName = new Map<string, number>();
  const edges = new Map<string, string[]>();
  const problems: ProblemAtPath[] = [];

  for (const entry of entries) {
    const firstIndex = firstIndexByName.get(entry.name);
    if (firstIndex === undefined) firstIndexByName.set(entry.name, entry.index);
    else {
      problems.push({
        code: 'repeated_module',
        path: [entry.index, 'name'],
        message: `module "${entry.name}" is declared more than once (first at modules[${firstIndex}]); each module appears once`,
      });
    }
    const targets = edges.get(entry.name) ?? [];
    edges.set(entry.name, targets);
    const seen = new Set<string>();
    entry.dependsOn.forEach((dependency, position) => {
      if (dependency === undefined) return;
      const path = [entry.index, 'dependsOn', position];
      if (dependency === entry.name) {
        problems.push({
          code: 'self_dependency',
          path,
          message: `module "${entry.name}" depends on itself`,
        });
      } else if (seen.has(dependency)) {
        problems.push({
          code: 'repeated_dependency',
          path,
          message: `"${dependency}" is listed more than once in dependsOn of "${entry.name}"`,
        });
      } else if (!knownNames.has(dependency)) {
        problems.push({
          code: 'unknown_dependency',
          path,
          message: `module "${entry.name}" depends on "${dependency}", which is not a module of this map; modules: ${known.join(', ')}`,
        });
      } else targets.push(dependency);
      seen.add(dependency);
    });
  }

  for (const cycle of findDependencyCycles(edges)) {
    problems.push({
      code: 'dependency_cycle',
      path: [],
      message: `dependency cycle ${formatCycle(cycle)}; the map must be acyclic — remove one of these dependencies`,
    });
  }
  return problems;
}

function readEntries(modules: readonly unknown[]): GraphEntry[] {
  const entries: GraphEntry[] = [];
  modules.forEach((module, index) => {
    if (typeof module !== 'object' || module === null) return;
    const { name, dependsOn } = module as { name?: unknown; dependsOn?: unknown };
    if (typeof name !== 'string') return;
    const dependencies = Array.isArray(dependsOn)
      ? dependsOn.map((value) => (typeof value === 'string' ? value : undefined))
      : [];
    entries.push({ index, name, dependsOn: dependencies });
  });
  return entries;
}
