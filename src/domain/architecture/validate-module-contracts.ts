import type { ProblemAtPath } from './declaration-problems.ts';
import type { ModuleContracts } from './module-contracts-schema.ts';
import { moduleContractsSchema } from './module-contracts-schema.ts';
import type { ModuleMap } from './module-map-schema.ts';
import { modulesNotInMap, noModuleMapProblem, readNamesAt } from './module-membership.ts';
import type { DeclarationValidation } from './validate-declaration.ts';
import { validateDeclaration } from './validate-declaration.ts';

export const MODULE_CONTRACTS_FIELD_ORDER = [
  'version',
  'contratos',
  'modulo',
  'expoe',
  'tipo',
  'assinatura',
  'descricao',
] as const;

/**
 * Validates the arguments of `declare_module_contracts` with every rule of record ADR 0200 — no module map; a
 * module not in the current map (listing the valid ones); a repeated module; empty `expoe` or more than 40
 * items; unknown `tipo`; empty `assinatura` or longer than 300 characters — plus malformed arguments named by
 * field path. ALL problems are reported in one refusal, in document order, so the model fixes them in one
 * turn; `reason` is the full text to return to it.
 */
export function validateModuleContractsDeclaration(
  args: unknown,
  currentModuleMap: ModuleMap | null,
): DeclarationValidation<ModuleContracts> {
  return validateDeclaration(moduleContractsSchema, args, {
    toolName: 'declare_module_contracts',
    fieldOrder: MODULE_CONTRACTS_FIELD_ORDER,
    valueCodes: { tipo: 'unknown_tipo' },
    contextProblems: mapProblems(args, currentModuleMap),
  });
}

function mapProblems(args: unknown, map: ModuleMap | null): ProblemAtPath[] {
  if (map === null)
    return [noModuleMapProblem('contracts are declared per module of the current map')];
  return modulesNotInMap(map, readNamesAt(args, 'contratos', 'modulo'));
}
