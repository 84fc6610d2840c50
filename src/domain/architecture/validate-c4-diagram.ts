import type { ProblemAtPath } from './declaration-problems.ts';
import type { C4Diagram } from './c4-diagram-schema.ts';
import { C4_SYSTEM_ENDPOINT, c4DiagramSchema } from './c4-diagram-schema.ts';
import type { ModuleMap } from './module-map-schema.ts';
import { compareText } from './module-cycles.ts';
import { nameAt, noModuleMapProblem, readNamesAt } from './module-membership.ts';
import type { DeclarationValidation } from './validate-declaration.ts';
import { validateDeclaration } from './validate-declaration.ts';

export const C4_DIAGRAM_FIELD_ORDER = [
  'version',
  'system',
  'actors',
  'relations',
  'id',
  'kind',
  'name',
  'from',
  'to',
  'description',
] as const;

/**
 * Validates the arguments of `declare_c4_diagram`: a module map must exist (the container level is the map);
 * every relation endpoint is an actor id, `system`, or a module of the current map (listing the valid
 * ones); an actor id never shadows a module name; no relation between two modules (those are `dependsOn`).
 * All problems are reported in one refusal.
 */
export function validateC4DiagramDeclaration(
  args: unknown,
  currentModuleMap: ModuleMap | null,
): DeclarationValidation<C4Diagram> {
  return validateDeclaration(c4DiagramSchema, args, {
    toolName: 'declare_c4_diagram',
    fieldOrder: C4_DIAGRAM_FIELD_ORDER,
    valueCodes: { kind: 'invalid_value' },
    contextProblems:
      currentModuleMap === null
        ? [
            noModuleMapProblem(
              'the C4 diagram places its actors around the modules of the current map',
            ),
          ]
        : endpointProblems(args, currentModuleMap),
  });
}

function endpointProblems(args: unknown, map: ModuleMap): ProblemAtPath[] {
  const modules = new Set(map.modules.map((module) => module.name));
  const actors = readNamesAt(args, 'actors', 'id');
  const actorIds = new Set(actors.map((actor) => actor.name));
  const validEndpoints = [
    C4_SYSTEM_ENDPOINT,
    ...[...actorIds].sort(compareText),
    ...[...modules].sort(compareText),
  ].join(', ');
  const problems: ProblemAtPath[] = actors
    .filter((actor) => modules.has(actor.name))
    .map((actor) => ({
      code: 'repeated_id',
      path: actor.path,
      message: `id "${actor.name}" is also a module name; people and external systems need ids that differ from the modules`,
    }));

  const relations =
    typeof args === 'object' && args !== null
      ? (args as { relations?: unknown }).relations
      : undefined;
  if (!Array.isArray(relations)) return problems;
  relations.forEach((relation, index) => {
    const ends = (['from', 'to'] as const).map((field) => ({
      field,
      name: nameAt(relation, field),
    }));
    for (const { field, name } of ends) {
      if (
        name === undefined ||
        name === C4_SYSTEM_ENDPOINT ||
        actorIds.has(name) ||
        modules.has(name)
      )
        continue;
      problems.push({
        code: 'unknown_endpoint',
        path: ['relations', index, field],
        message: `"${name}" is not an actor id, "${C4_SYSTEM_ENDPOINT}", or a module of the current map (version ${map.version}); valid: ${validEndpoints}`,
      });
    }
    const [from, to] = ends.map((end) => end.name);
    if (
      from !== undefined &&
      to !== undefined &&
      from !== to &&
      modules.has(from) &&
      modules.has(to) &&
      !actorIds.has(from) &&
      !actorIds.has(to)
    ) {
      problems.push({
        code: 'module_to_module_relation',
        path: ['relations', index],
        message: `relation between modules "${from}" and "${to}": relations between modules come from dependsOn of the current module map, not from the diagram — remove it (or change the map)`,
      });
    }
  });
  return problems;
}
