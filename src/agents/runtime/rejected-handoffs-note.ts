import { rejectionsOf } from '../../domain/handoffs/index.ts';

/** What the sender is told to do about its rejected handoff, by who it is (the tool it calls again). */
const NEXT_STEP: Readonly<Record<string, string>> = {
  criativo:
    'Converse com a pessoa sobre o que mudar no brief, por esse motivo. Quando ela estiver pronta, ela aperta de novo "Estou pronto para produzir" e uma nova versão do brief é consolidada e oferecida ao PO.',
  po: 'Corrija o backlog por esse motivo (declare_backlog) e chame hand_off_to_arquiteto de novo para oferecer o trabalho ao Arquiteto outra vez.',
  arquiteto:
    'Corrija a arquitetura por esse motivo (mapa, contratos, tarefas — uma nova versão de cada declaração que mudar) e chame hand_off_to_devs de novo: só os devs recusados recebem um novo handoff.',
};

/**
 * The task-state note of `agent`'s rejected handoffs that still stand (ADR 0160): who rejected what, the
 * person's reason in their words, and the way back. Null when none stands, so the prompt is unchanged.
 */
export function rejectedHandoffsNote(
  events: ReadonlyArray<{ readonly type: string; readonly seq: number; readonly payload: unknown }>,
  agent: string,
): string | null {
  const rejections = rejectionsOf(events, agent);
  if (rejections.length === 0) return null;
  return [
    '## Handoff rejeitado pela pessoa',
    ...rejections.map(
      (rejection) =>
        `- O handoff para ${rejection.to_agent} (${rejection.handoff_id}) foi rejeitado. Motivo: ${rejection.reason === '' ? '(a pessoa não deu motivo)' : rejection.reason}`,
    ),
    NEXT_STEP[agent] ?? 'Responda à pessoa sobre o motivo e refaça o que ela pediu.',
  ].join('\n');
}
