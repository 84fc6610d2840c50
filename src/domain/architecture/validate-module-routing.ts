import type { ModuleMap } from './module-map-schema.ts';
import { modulesNotInMap, noModuleMapProblem, readNamesAt } from './module-membership.ts';
import type { ModuleRouting } from './module-routing-schema.ts';
import { moduleRoutingSchema } from './module-routing-schema.ts';
import type { DeclarationValidation } from './validate-declaration.ts';
import { validateDeclaration } from './validate-declaration.ts';

export const MODULE_ROUTING_FIELD_ORDER = [
  'version',
  'routes',
  'module',
  'infra',
  'notes',
] as const;

/**
 * Validates the arguments of `route_modules_to_infra`: a module map must exist, every routed module must be
 * in it (listing the valid ones), no module routed twice, plus malformed arguments by field path — all
 * reported in one refusal.
 */
export function validateModuleRoutingDeclaration(
  args: unknown,
  currentModuleMap: ModuleMap | null,
): DeclarationValidation<ModuleRouting> {
  const contextProblems =
    currentModuleMap === null
      ? [noModuleMapProblem('modules are routed to infrastructure from the current map')]
      : modulesNotInMap(currentModuleMap, readNamesAt(args, 'routes', 'module'));
  return validateDeclaration(moduleRoutingSchema, args, {
    toolName: 'route_modules_to_infra',
    fieldOrder: MODULE_ROUTING_FIELD_ORDER,
    contextProblems,
  });
}
