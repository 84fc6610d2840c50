import { InvariantViolationError } from '../errors/index.ts';
import type { ModuleContracts } from './module-contracts-schema.ts';
import type { ModuleMap } from './module-map-schema.ts';
import { compareText } from './module-cycles.ts';
import { relationIn, scopeModules } from './module-scope.ts';
import type { ListedModule, ModuleContractsListingData } from './module-contracts-listing.ts';
import { renderModuleContractsText } from './render-module-contracts.ts';

export type { ListedModule, ModuleContractsListingData } from './module-contracts-listing.ts';

/** "Потолок 120 элементов в тексте" (record ADR 0200). */
export const MAX_LISTED_CONTRACT_ITEMS = 120;

/** What `listar_contratos_de_modulos` reads; nothing here comes from the model. */
export type ListModuleContractsInput = {
  /** The dev's module from the loop context (`ctx.module`); null when the session has none. */
  readonly module: string | null;
  /** The current module map, or null when none was declared. */
  readonly moduleMap: ModuleMap | null;
  /** The current `module_contracts` declaration (see `currentVersion`), or null when none was declared. */
  readonly contracts: ModuleContracts | null;
  readonly maxItems?: number;
  /** Names of arguments the model sent although the tool takes none (see `ignoredArgumentNames`). */
  readonly argumentsIgnored?: readonly string[];
};

export type ModuleContractsListing = {
  readonly text: string;
  readonly structured: ModuleContractsListingData;
};

/**
 * The restrained read of record ADR 0200 for a dev agent: its own module and the modules it consumes in full,
 * the modules that consume it and all others by name, at most `maxItems` contract items with what was left
 * out said, contracts of modules that left the map declared as such, and — with no contracts — the map with
 * `expoe: null` per module, a warning and what to do (§6). Deterministic: same inputs, same text.
 */
export function listModuleContractsForDev(input: ListModuleContractsInput): ModuleContractsListing {
  const maxItems = input.maxItems ?? MAX_LISTED_CONTRACT_ITEMS;
  if (!Number.isSafeInteger(maxItems) || maxItems < 0) {
    throw new InvariantViolationError(
      'max_items',
      `listModuleContractsForDev: maxItems must be a whole number ≥ 0, got ${maxItems}`,
    );
  }
  const { moduleMap: map, contracts } = input;
  const itemsByModule = new Map(
    (contracts?.contratos ?? []).map((contract) => [contract.modulo, contract.expoe]),
  );
  const mapNames = new Set(map?.modules.map((module) => module.name) ?? []);
  const scope = map === null ? null : scopeModules(input.module, map);
  const moduleInMap = input.module === null || map === null ? null : mapNames.has(input.module);

  const byName = new Map(map?.modules.map((module) => [module.name, module]) ?? []);
  const ordered =
    scope === null
      ? []
      : [
          ...(scope.own === null ? [] : [scope.own]),
          ...scope.consumed,
          ...scope.consumers,
          ...scope.others,
        ];
  let remaining = maxItems;
  const modules = ordered.map((name): ListedModule => {
    const relation = scope === null ? 'other' : relationIn(scope, name);
    const full =
      contracts === null || input.module === null || relation === 'own' || relation === 'consumed';
    if (!full) return { name, relation, detail: 'name_only' };
    const mapEntry = byName.get(name);
    const declared = itemsByModule.get(name) ?? null;
    const shown = declared === null ? null : declared.slice(0, remaining);
    remaining -= shown?.length ?? 0;
    return {
      name,
      relation,
      detail: 'full',
      responsibility: mapEntry?.responsibility ?? '',
      stack: mapEntry?.stack ?? '',
      dependsOn: [...(mapEntry?.dependsOn ?? [])].sort(compareText),
      expoe: shown,
      declaredItems: declared?.length ?? null,
      omittedItems: (declared?.length ?? 0) - (shown?.length ?? 0),
    };
  });

  const contractsOutsideMap = (contracts?.contratos ?? [])
    .filter((contract) => !mapNames.has(contract.modulo))
    .map((contract) => ({ modulo: contract.modulo, declaredItems: contract.expoe.length }))
    .sort((left, right) => compareText(left.modulo, right.modulo));
  const omittedItems = modules.reduce(
    (sum, module) => sum + (module.detail === 'full' ? module.omittedItems : 0),
    0,
  );

  const structured: ModuleContractsListingData = {
    module: input.module,
    moduleInMap,
    moduleMapVersion: map?.version ?? null,
    contractsVersion: contracts?.version ?? null,
    modules,
    contractsOutsideMap,
    maxItems,
    shownItems: maxItems - remaining,
    omittedItems,
    argumentsIgnored: [...(input.argumentsIgnored ?? [])].sort(compareText),
  };
  return { text: renderModuleContractsText(structured), structured };
}
