import { MODULE_MAP_FIELD_ORDER } from './module-graph.ts';
import type { ModuleMap } from './module-map-schema.ts';
import { moduleMapSchema } from './module-map-schema.ts';
import type { DeclarationValidation } from './validate-declaration.ts';
import { validateDeclaration } from './validate-declaration.ts';

/**
 * Validates the arguments of `declare_module_map`: shape (naming the field path), module names, and the
 * graph rules of `validateModuleMap` (unknown dependency, self-dependency, cycle named), all reported at once.
 */
export function validateModuleMapDeclaration(args: unknown): DeclarationValidation<ModuleMap> {
  return validateDeclaration(moduleMapSchema, args, {
    toolName: 'declare_module_map',
    fieldOrder: MODULE_MAP_FIELD_ORDER,
  });
}
