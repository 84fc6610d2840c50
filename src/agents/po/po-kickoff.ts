import type { Backlog } from '../../domain/artifacts/index.ts';

/** The PO's task (the `estado_tarefa` layer); the guarantees are in the tools, this text explains them. */
export const PO_KICKOFF = [
  'Você recebeu do Criativo o product brief desta sessão. Seu trabalho, em passos:',
  '1. Leia o product brief e as regras de negócio (camadas contexto_projeto e regras_negocio).',
  '2. Escreva o backlog com declare_backlog: épicos (EP-001…), histórias (HS-001…, cada uma com epic_id) e tarefas (AT-001…, cada uma com story_id), todas com critérios de aceitação verificáveis.',
  '3. Nos épicos, cite em business_rule_refs os ids das regras de negócio que eles cobrem.',
  '4. Não informe module nas tarefas enquanto não houver mapa de módulos: o Arquiteto atribui as tarefas aos módulos.',
  '5. Ids são estáveis: declarar o mesmo id de novo substitui o item. Se a ferramenta recusar, leia o motivo inteiro, corrija tudo e chame de novo.',
  '6. Quando o backlog cobrir o brief, chame hand_off_to_arquiteto: ele conclui o seu handoff e oferece o trabalho ao Arquiteto. Depois diga à pessoa, numa frase, que ela pode aceitar o handoff.',
].join('\n');

/** The kickoff with where the PO's work stands. */
export function poTaskState(backlog: Backlog, handedOff: boolean): string {
  const counts = `Backlog agora: ${backlog.epics.length} épico(s), ${backlog.stories.length} história(s), ${backlog.tasks.length} tarefa(s).`;
  const handoff = handedOff
    ? 'O trabalho já foi oferecido ao Arquiteto: responda à pessoa e só mude o backlog se ela pedir.'
    : 'O trabalho ainda não foi oferecido ao Arquiteto.';
  return [PO_KICKOFF, '', counts, handoff].join('\n');
}
