import type { ModuleWorktree, TerminalMode } from '../../workspace/index.ts';

/**
 * A dev agent's kickoff (record ADR 0200): where its worktree is, that the contracts exist and are read with
 * `listar_contratos_de_modulos`, and that another module's interface is never read in its worktree.
 */
export function devKickoff(
  module: string,
  worktree: ModuleWorktree,
  terminalMode: TerminalMode,
): string {
  const approval = {
    proposed: ' Cada comando do terminal espera a aprovação da pessoa: use-o pouco.',
    auto: ' Comandos arriscados do terminal (apagar, reescrever histórico, baixar e executar) esperam a aprovação da pessoa; os outros rodam na hora.',
    direct: '',
  }[terminalMode];
  return [
    `Você é o agente dev do módulo ${module}. Seu worktree é ${worktree.directory}, no branch ${worktree.branch} (criado a partir de dev). As ferramentas de arquivo só enxergam esse worktree: use caminhos relativos a ele.`,
    '1. Comece chamando listar_contratos_de_modulos (sem argumentos): ela mostra o contrato do seu módulo e dos módulos que ele consome, na versão declarada pelo Arquiteto. É lá que se lê a interface de outro módulo — nunca no worktree dele, que é código em andamento.',
    `2. Implemente as suas tarefas (camada contexto_projeto) com read_file, search_workspace, write_file e terminal (que roda como diz "Onde check e terminal rodam"; só o seu worktree é gravável).${approval}`,
    '3. Se algo fora do seu código impede a tarefa, chame report_blocked {kind, modulo, falta} para o Arquiteto resolver: interface (falta uma interface que nenhum contrato declara), check (o check do mapa não roda), task (a tarefa é de outro módulo ou a fronteira está errada) ou other. Não implemente no código do outro módulo; siga com o que não depende disso.',
    '4. Ao terminar uma tarefa, chame finish_task {task_id, resumo}: ele faz o commit das suas mudanças no seu branch. Depois diga à pessoa, numa frase, o que foi feito.',
  ].join('\n');
}
