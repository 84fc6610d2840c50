import { z } from 'zod';
import { versionedArtifact } from './artifact-definition.ts';
import { MAX_MODULES } from './module-map-schema.ts';
import { repeatedNames } from './module-membership.ts';
import {
  addRuleProblem,
  arrayRule,
  optionalText,
  requiredText,
  strictObject,
  versionSchema,
} from './schema-helpers.ts';

/** `tipo ∈ funcao | rota | evento | dado`: what changes how an item is USED (record ADR 0200). */
export const CONTRACT_ITEM_TYPES = ['funcao', 'rota', 'evento', 'dado'] as const;
export type ContractItemType = (typeof CONTRACT_ITEM_TYPES)[number];
/** "от 1 до 40 элементов на модуль": the contract goes into every dev's context, so it stays small. */
export const MAX_CONTRACT_ITEMS_PER_MODULE = 40;
/** "обязательной assinatura (до 300 символов)". */
export const MAX_ASSINATURA_CHARACTERS = 300;
/**
 * The record leaves `descricao` unbounded; we bound it for the record's own reason (every dev reads the
 * contract on every step) at a size that still fits a few sentences.
 */
export const MAX_DESCRICAO_CHARACTERS = 500;

/** One item a module exposes. `assinatura` is free text: each module's stack is free (record ADR 0200). */
export const contractItemSchema = strictObject({
  tipo: z.enum(CONTRACT_ITEM_TYPES, {
    error: (issue) =>
      issue.code === 'invalid_value'
        ? `unknown tipo ${JSON.stringify(issue.input)}; valid: ${CONTRACT_ITEM_TYPES.join(', ')}`
        : undefined,
  }),
  assinatura: requiredText({
    field: 'assinatura',
    maxCharacters: MAX_ASSINATURA_CHARACTERS,
    emptyCode: 'empty_assinatura',
    tooLongCode: 'assinatura_too_long',
  }),
  descricao: optionalText({
    field: 'descricao',
    maxCharacters: MAX_DESCRICAO_CHARACTERS,
    tooLongCode: 'descricao_too_long',
  }),
});

/** What one module PROVIDES: `{modulo, expoe: [...]}`. What it consumes is never written (derived from dependsOn). */
export const moduleContractSchema = strictObject({
  modulo: requiredText({
    field: 'modulo',
    maxCharacters: 200,
    emptyCode: 'empty_text',
    tooLongCode: 'text_too_long',
  }),
  expoe: z
    .array(contractItemSchema)
    .check(
      arrayRule((items, context) => {
        if (items.length === 0) {
          addRuleProblem(
            context,
            'empty_expoe',
            `expoe is empty; a module's contract lists 1 to ${MAX_CONTRACT_ITEMS_PER_MODULE} items`,
          );
        } else if (items.length > MAX_CONTRACT_ITEMS_PER_MODULE) {
          addRuleProblem(
            context,
            'too_many_items',
            `expoe has ${items.length} items; the limit is ${MAX_CONTRACT_ITEMS_PER_MODULE} per module (the contract goes into every dev's context)`,
          );
        }
      }),
    )
    .meta({ minItems: 1, maxItems: MAX_CONTRACT_ITEMS_PER_MODULE }),
});

/**
 * `artifact.module_contracts`: `{version, contratos: [{modulo, expoe}]}`. Each declaration carries the WHOLE
 * list and replaces the previous one (record ADR 0200), hence no repeated module and no empty list — an empty
 * declaration would silently erase every contract. Membership in the current map needs the map and is
 * checked by `validateModuleContractsDeclaration`.
 */
export const moduleContractsSchema = strictObject({
  version: versionSchema,
  contratos: z
    .array(moduleContractSchema)
    .check(
      arrayRule((contracts, context) => {
        if (contracts.length === 0) {
          addRuleProblem(
            context,
            'empty_contratos',
            'contratos is empty; declare the contract of at least one module of the map',
          );
        }
        if (contracts.length > MAX_MODULES) {
          addRuleProblem(
            context,
            'too_many_entries',
            `${contracts.length} contracts; the limit is ${MAX_MODULES}`,
          );
        }
        for (const problem of repeatedNames(
          contracts,
          'modulo',
          'contratos',
          'list each module once with its whole expoe',
        )) {
          addRuleProblem(context, problem.code, problem.message, [...problem.path]);
        }
      }),
    )
    .meta({ minItems: 1, maxItems: MAX_MODULES }),
});

export type ContractItem = z.output<typeof contractItemSchema>;
export type ModuleContract = z.output<typeof moduleContractSchema>;
export type ModuleContracts = z.output<typeof moduleContractsSchema>;

export const moduleContractsArtifact = versionedArtifact('module_contracts', moduleContractsSchema);
