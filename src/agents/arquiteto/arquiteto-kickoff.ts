import type { ProjectArchitecture } from '../../domain/architecture/index.ts';
import type { Backlog } from '../../domain/artifacts/index.ts';

/** The Arquiteto's iteration ceiling: 14 model calls a turn, as the records set it for the Arquiteto. */
export const ARQUITETO_MAX_ITERATIONS = 14;

/**
 * The Arquiteto's kickoff: the steps of the record, step 5 being the contracts (record ADR 0200), each one
 * tool call so the eight steps fit the ceiling of 14 model calls with room for corrections.
 */
export const ARQUITETO_KICKOFF = [
  'Você recebeu do PO o backlog: o que não está marcado como feito é o trabalho desta sessão. Declare a arquitetura nesta ordem, uma ferramenta por passo:',
  '1. declare_project_image — a imagem do projeto: o que ele é, sua forma e as escolhas principais.',
  '2. declare_module_map — os módulos {name, stack, responsibility, dependsOn[], directory?}; sem ciclos e sem depender de módulo que não está no mapa. directory é a pasta do módulo no repositório (ex.: packages/pedidos): o dev do módulo lê os AGENTS.md do caminho até ela. check (opcional) é o comando de shell que verifica o módulo (ex.: npx tsc --noEmit, node --test, pytest -q): finish_task o roda antes de cada commit, como diz "Onde check e terminal rodam"; sem ele vale o padrão da stack.',
  '3. route_modules_to_infra — onde cada módulo roda.',
  '4. declare_c4_diagram — o contexto C4: pessoas e sistemas externos em volta do sistema e dos módulos (o nível de contêiner é o próprio mapa).',
  '5. declare_module_contracts — o contrato de cada módulo: só o que ele EXPÕE, {modulo, expoe: [{tipo: funcao|rota|evento|dado, assinatura (até 300 caracteres), descricao?}]}, de 1 a 40 itens por módulo. O que um módulo consome vem do dependsOn do mapa: nunca escreva duas vezes. Os devs leem os contratos com listar_contratos_de_modulos, nunca no worktree de outro módulo; mudar um contrato é declarar uma nova versão.',
  '6. assign_tasks_to_modules — atribua cada tarefa do backlog a um módulo do mapa. Uma tarefa que atravessa módulos (ou cujo texto precisa ser refeito) você divide com split_task: cada parte com seu módulo, título e descrição completos, e ids novos que substituem a tarefa.',
  '7. Revise: cada declaração leva a lista inteira e substitui a anterior (version maior para mudar). Se uma ferramenta recusar, leia o motivo inteiro, corrija todos os problemas e chame de novo.',
  '8. hand_off_to_devs — conclui o seu handoff e oferece um handoff a cada módulo do mapa (dev:<módulo>). Depois diga à pessoa, numa frase, que ela pode aceitar os handoffs dos devs.',
  `Você tem no máximo ${ARQUITETO_MAX_ITERATIONS} chamadas ao modelo por turno: uma ferramenta por chamada, sem repetir o que já está declarado.`,
].join('\n');

/** The kickoff with where each step stands. */
export function arquitetoTaskState(
  architecture: ProjectArchitecture,
  backlog: Backlog,
  handedOff: boolean,
  done: ReadonlySet<string> = new Set(),
): string {
  const declared = (
    ['project_image', 'module_map', 'module_routing', 'c4_diagram', 'module_contracts'] as const
  ).map(
    (type) =>
      `${type}: ${architecture[type] === null ? 'não declarado' : `versão ${architecture[type]!.version}`}`,
  );
  const unassigned = backlog.tasks
    .filter((task) => task.module === undefined && !done.has(task.id))
    .map((task) => task.id);
  return [
    ARQUITETO_KICKOFF,
    '',
    `Declarado até agora — ${declared.join('; ')}.`,
    `Tarefas sem módulo: ${unassigned.length === 0 ? '(nenhuma)' : unassigned.join(', ')}.`,
    handedOff
      ? 'Os handoffs aos devs já foram oferecidos.'
      : 'Os handoffs aos devs ainda não foram oferecidos.',
  ].join('\n');
}
