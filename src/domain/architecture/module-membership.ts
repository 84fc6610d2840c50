import type { ProblemAtPath, ProblemPath } from './declaration-problems.ts';
import type { ModuleMap } from './module-map-schema.ts';
import { compareText } from './module-cycles.ts';

/** A module named somewhere in a declaration, with where. */
export type ModuleReference = { readonly path: ProblemPath; readonly name: string };

/** The refusal of any module-scoped declaration made before a module map exists. */
export function noModuleMapProblem(what: string): ProblemAtPath {
  return {
    code: 'no_module_map',
    path: [],
    message: `this project has no module map yet; declare it with declare_module_map first — ${what}`,
  };
}

/** Every reference to a module absent from the current map, each listing the valid modules (record ADR 0200). */
export function modulesNotInMap(
  map: ModuleMap,
  references: readonly ModuleReference[],
): ProblemAtPath[] {
  const valid = map.modules.map((module) => module.name).sort(compareText);
  const known = new Set(valid);
  return references
    .filter((reference) => !known.has(reference.name))
    .map((reference) => ({
      code: 'module_not_in_map',
      path: reference.path,
      message: `module "${reference.name}" is not in the current module map (version ${map.version}); valid modules: ${valid.join(', ')}`,
    }));
}

/**
 * Reads `list[i][field]` from raw arguments as trimmed non-empty strings, skipping anything malformed (its
 * shape is reported by the schema), so map checks run in the same turn as shape checks.
 */
export function readNamesAt(args: unknown, listField: string, field: string): ModuleReference[] {
  const list =
    typeof args === 'object' && args !== null
      ? (args as Record<string, unknown>)[listField]
      : undefined;
  if (!Array.isArray(list)) return [];
  const references: ModuleReference[] = [];
  list.forEach((entry, index) => {
    const name = nameAt(entry, field);
    if (name !== undefined) references.push({ path: [listField, index, field], name });
  });
  return references;
}

/** The trimmed non-empty string at `entry[field]`, or undefined. */
export function nameAt(entry: unknown, field: string): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const value = (entry as Record<string, unknown>)[field];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Each later occurrence of a name already used in `list`, pointing at the first (paths relative to the list). */
export function repeatedNames(
  list: readonly unknown[],
  field: string,
  listLabel: string,
  hint: string,
): ProblemAtPath[] {
  const firstIndexByName = new Map<string, number>();
  const problems: ProblemAtPath[] = [];
  list.forEach((entry, index) => {
    const name = nameAt(entry, field);
    if (name === undefined) return;
    const firstIndex = firstIndexByName.get(name);
    if (firstIndex === undefined) firstIndexByName.set(name, index);
    else {
      problems.push({
        code: 'repeated_module',
        path: [index, field],
        message: `module "${name}" appears more than once (first at ${listLabel}[${firstIndex}]); ${hint}`,
      });
    }
  });
  return problems;
}
