import type { ModuleContracts } from '../../domain/architecture/index.ts';

/**
 * The current contracts as declared, `descricao` included (where the meaning goes that the 300-character
 * `assinatura` cannot hold), so the Arquiteto declares the next version from what is there.
 */
export function renderContractsSummary(contracts: ModuleContracts | null): string {
  if (contracts === null) return '## Contratos de módulos\n(nenhum contrato declarado)';
  return [
    `## Contratos de módulos (versão ${contracts.version})`,
    ...contracts.contratos.flatMap((contract) => [
      `- ${contract.modulo}:`,
      ...contract.expoe.map(
        (item) =>
          `  - [${item.tipo}] ${item.assinatura.replace(/\s+/g, ' ')}${item.descricao === undefined ? '' : ` — ${item.descricao.replace(/\s+/g, ' ')}`}`,
      ),
    ]),
  ].join('\n');
}
