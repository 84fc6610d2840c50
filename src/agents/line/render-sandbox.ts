import type { SandboxTools, TerminalSettings } from '../../workspace/index.ts';

/**
 * Where a module's `check` and a dev's `terminal` run, stated once for the Arquiteto (who writes the checks)
 * and the devs (who run them): the directory, the shell, the versions found in the sandbox, no network,
 * no git. A check written for another place (`cd "$(git rev-parse --show-toplevel)/…"`) fails every dev.
 */
export function renderSandbox(
  tools: SandboxTools,
  settings: Pick<TerminalSettings, 'timeoutMs'>,
): string {
  const found = Object.entries(tools.versions);
  const present = found.filter(([, version]) => version !== null);
  const absent = found.filter(([, version]) => version === null).map(([tool]) => tool);
  const versions =
    tools.unknown !== null
      ? `Versões: não detectadas (${tools.unknown.slice(0, 200)}).`
      : `Versões no sandbox: ${present.map(([tool, version]) => `${tool} ${version}`).join(', ') || '(nenhuma)'}${absent.length === 0 ? '' : `; não instalados: ${absent.join(', ')}`}.`;
  return [
    '## Onde check e terminal rodam',
    `O check de um módulo (finish_task o roda antes de cada commit) e o terminal dos devs rodam com /bin/sh -c na raiz do worktree do módulo (o repositório inteiro, no branch do módulo), não na pasta directory do módulo: para entrar nela, cd packages/<módulo> && node --test. Até ${settings.timeoutMs / 1000} s.`,
    versions,
    'Sem rede: npm install, pip install e afins não baixam nada. git não está disponível dentro do sandbox (o .git do worktree fica fora dele: "fatal: not a git repository"): nunca use git no check nem no terminal.',
  ].join('\n');
}
