import type { ModuleContracts } from '../../domain/architecture/index.ts';
import { codeSpan, generatedNotice, oneLine } from './markdown.ts';

/** `docs/module-contracts.md`: what each module EXPOSES, as declared (record ADR 0200). */
export function renderModuleContractsDoc(contracts: ModuleContracts): string {
  const sections = contracts.contratos.flatMap((contract) => [
    `## ${oneLine(contract.modulo)}`,
    '',
    ...contract.expoe.map(
      (item) =>
        `- **${item.tipo}** ${codeSpan(item.assinatura)}${item.descricao ? ` — ${oneLine(item.descricao)}` : ''}`,
    ),
    '',
  ]);
  return [
    `# Module contracts — version ${contracts.version}`,
    '',
    generatedNotice('module_contracts', contracts.version),
    '',
    'Only what each module provides is written here. What a module consumes comes from its `dependsOn` in `docs/module-map.md`.',
    "Dev agents read these contracts with `listar_contratos_de_modulos`, never in another module's worktree.",
    '',
    ...sections,
  ].join('\n');
}
