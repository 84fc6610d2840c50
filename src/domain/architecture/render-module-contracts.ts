import type { ContractItem } from './module-contracts-schema.ts';
import type { ListedModule, ModuleContractsListingData } from './module-contracts-listing.ts';
import type { ModuleRelation } from './module-scope.ts';

const RELATION_LABELS: Record<ModuleRelation, string> = {
  own: 'your module',
  consumed: 'you consume it',
  consumer: 'consumes your module',
  other: 'other module',
};

/**
 * The text of `listar_contratos_de_modulos`, rendered from the listing data only. Item lines, and only
 * they, start with `- [`; each says `[tipo] assinatura — descricao` on one line.
 */
export function renderModuleContractsText(listing: ModuleContractsListingData): string {
  const full = listing.modules.filter((module) => module.detail === 'full');
  const blocks = [
    [headerLine(listing), ...scopeLines(listing)],
    warningLines(listing, full),
    full.flatMap(moduleLines),
    nameOnlyLines(listing),
    outsideMapLines(listing),
    [
      ...leftOutLines(listing, full),
      ...whatToDoLines(listing, full),
      ...ignoredArgumentLines(listing),
    ],
  ];
  return blocks
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n');
}

function headerLine(listing: ModuleContractsListingData): string {
  const contracts =
    listing.contractsVersion === null ? 'none declared' : `version ${listing.contractsVersion}`;
  const map =
    listing.moduleMapVersion === null ? 'none declared' : `version ${listing.moduleMapVersion}`;
  return `listar_contratos_de_modulos — module contracts: ${contracts}; module map: ${map}.`;
}

function scopeLines(listing: ModuleContractsListingData): string[] {
  const lines: string[] = [];
  if (listing.moduleMapVersion !== null && listing.module === null) {
    lines.push('No module is set for this session: every module of the map is listed in full.');
  } else if (listing.moduleInMap === true) {
    lines.push(
      `Your module: ${listing.module}. In full: your module and the modules it consumes (its dependsOn in the current module map). By name only: the modules that consume it and the others.`,
    );
  } else if (listing.moduleInMap === false) {
    lines.push(
      `Your module "${listing.module}" is not in the current module map (version ${listing.moduleMapVersion}): it may have been removed or renamed by the Arquiteto. What a module consumes comes from its dependsOn in the map, so no contract is shown as yours or as one you consume.`,
    );
  }
  lines.push(
    "Another module's interface is read here, never in its worktree: this is the version the Arquiteto declared, not code in progress.",
  );
  return lines;
}

function warningLines(
  listing: ModuleContractsListingData,
  full: readonly ListedModule[],
): string[] {
  if (listing.moduleMapVersion === null)
    return ['Warning: this project has no module map yet, so no module has a contract.'];
  if (listing.contractsVersion === null) {
    return [
      'Warning: no module contracts have been declared in this project yet: every module of the map is listed with expoe: null.',
    ];
  }
  const missing = modulesWithoutContract(full);
  if (missing.length === 0) return [];
  return [
    `Warning: no contract is declared for: ${missing.map((module) => `${module.name} (${RELATION_LABELS[module.relation]})`).join(', ')}.`,
  ];
}

function modulesWithoutContract(full: readonly ListedModule[]): ListedModule[] {
  return full.filter((module) => module.detail === 'full' && module.expoe === null);
}

function moduleLines(module: ListedModule): string[] {
  if (module.detail !== 'full') return [];
  const dependsOn = module.dependsOn.length === 0 ? '(none)' : module.dependsOn.join(', ');
  const lines = [`## ${module.name} (${RELATION_LABELS[module.relation]}) — ${itemCount(module)}`];
  lines.push(
    `${oneLine(module.responsibility)} — stack: ${oneLine(module.stack)} — dependsOn: ${dependsOn}`,
  );
  for (const item of module.expoe ?? []) lines.push(itemLine(item));
  return lines;
}

function itemCount(module: Extract<ListedModule, { detail: 'full' }>): string {
  if (module.expoe === null) return 'expoe: null (no contract declared)';
  const declared = itemsText(module.declaredItems ?? 0);
  return module.omittedItems === 0 ? declared : `${declared}, ${module.expoe.length} listed`;
}

function itemLine(item: ContractItem): string {
  const description =
    item.descricao === undefined || item.descricao === '' ? '' : ` — ${oneLine(item.descricao)}`;
  return `- [${item.tipo}] ${oneLine(item.assinatura)}${description}`;
}

/** Keeps one item per line whatever the model put in a signature. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

function nameOnlyLines(listing: ModuleContractsListingData): string[] {
  const names = (relation: ModuleRelation) =>
    listing.modules
      .filter((module) => module.detail === 'name_only' && module.relation === relation)
      .map((module) => module.name);
  const lines: string[] = [];
  const consumers = names('consumer');
  if (consumers.length > 0)
    lines.push(`Modules that consume ${listing.module} (by name only): ${consumers.join(', ')}`);
  const others = names('other');
  if (others.length > 0) {
    const label = listing.moduleInMap === false ? 'Modules in the current map' : 'Other modules';
    lines.push(`${label} (by name only): ${others.join(', ')}`);
  }
  return lines;
}

function outsideMapLines(listing: ModuleContractsListingData): string[] {
  if (listing.contractsOutsideMap.length === 0) return [];
  const entries = listing.contractsOutsideMap.map(
    (contract) => `${contract.modulo} (${itemsText(contract.declaredItems)})`,
  );
  return [
    `Contracts declared for modules that are not in the current module map — declared here, not attributed to any module, not shown: ${entries.join(', ')}.`,
  ];
}

function leftOutLines(
  listing: ModuleContractsListingData,
  full: readonly ListedModule[],
): string[] {
  const parts = full.flatMap((module) => {
    if (module.detail !== 'full' || module.omittedItems === 0) return [];
    const shownNone = module.omittedItems === module.declaredItems;
    if (!shownNone)
      return [`${module.omittedItems} of ${module.declaredItems} items of ${module.name}`];
    return [
      module.declaredItems === 1
        ? `the 1 item of ${module.name}`
        : `all ${module.declaredItems} items of ${module.name}`,
    ];
  });
  if (parts.length === 0) return [];
  return [
    `Left out by the ceiling of ${listing.maxItems} items: ${parts.join('; ')} (${itemsText(listing.omittedItems)} in all, declared but not listed here).`,
  ];
}

function whatToDoLines(
  listing: ModuleContractsListingData,
  full: readonly ListedModule[],
): string[] {
  const lines: string[] = [];
  if (listing.moduleInMap === false) {
    lines.push(
      `What to do: call report_blocked naming your module and what is missing — {"modulo": "${listing.module}", "falta": "the module is not in the current module map"} — so the Arquiteto restores it or moves your task.`,
    );
  }
  const contractMissing =
    listing.moduleMapVersion === null ||
    listing.contractsVersion === null ||
    modulesWithoutContract(full).length > 0;
  if (contractMissing) {
    lines.push(
      'What to do without a contract: implement from what your story and task say. If your task depends on an interface that does not exist, call report_blocked naming the module and the missing interface — {"modulo": "<module>", "falta": "<the interface you need>"} — so the Arquiteto declares it. Do not look for it in another module\'s worktree.',
    );
  }
  return lines;
}

function ignoredArgumentLines(listing: ModuleContractsListingData): string[] {
  if (listing.argumentsIgnored.length === 0) return [];
  return [
    `Note: listar_contratos_de_modulos takes no arguments; ignored: ${listing.argumentsIgnored.join(', ')}. The module comes from your task context, never from arguments.`,
  ];
}

function itemsText(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}
