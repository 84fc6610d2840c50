import type { Decision, EarlierSession } from '../../domain/artifacts/index.ts';
import { truncateText } from '../../domain/memory/index.ts';

/** The briefs of the latest earlier sessions shown; older ones are counted, not shown. */
export const MAX_EARLIER_BRIEFS = 3;
/** The latest decisions of earlier sessions shown; older ones are counted, not shown. */
export const MAX_EARLIER_DECISIONS = 20;
/** A question or an answer of an earlier decision is cut past this many characters. */
const MAX_DECISION_CHARACTERS = 500;

const decidedBy = (decision: Decision) =>
  decision.decided_by === 'person' ? 'a pessoa' : decision.decided_by;

/** "(N <what>)" when some were left out. */
const leftOut = (total: number, shown: number, what: string) =>
  total > shown ? [`(${total - shown} ${what})`] : [];

/**
 * What the project's earlier sessions decided (ADR 0416), for the Criativo, the PO and the Arquiteto of a
 * session that continues it: the briefs of the last few sessions (title, summary, goals) and their latest
 * decisions as "pergunta → resposta (decidido por …)", each part bounded. Null when no earlier session left a
 * brief or a decision. Pure.
 */
export function renderEarlierSessions(sessions: readonly EarlierSession[]): string | null {
  const briefs = sessions.flatMap((session) => (session.brief === null ? [] : [session.brief]));
  const decisions = sessions.flatMap((session) => session.decisions);
  if (briefs.length === 0 && decisions.length === 0) return null;
  const shownBriefs = briefs.slice(-MAX_EARLIER_BRIEFS);
  const shownDecisions = decisions.slice(-MAX_EARLIER_DECISIONS);
  const clip = (text: string) => truncateText(text, MAX_DECISION_CHARACTERS);
  return [
    '## Sessões anteriores: briefs e decisões',
    'O que as sessões anteriores deste projeto pediram e decidiram: a sessão atual parte daí, e o que ela decidir de novo prevalece.',
    ...leftOut(briefs.length, shownBriefs.length, 'briefs mais antigos não mostrados'),
    ...shownBriefs.flatMap((brief) => [
      '',
      `### Brief anterior: ${brief.title}`,
      brief.summary,
      'Objetivos:',
      ...brief.goals.map((goal) => `- ${goal}`),
    ]),
    ...(decisions.length === 0
      ? []
      : [
          '',
          '### Decisões anteriores',
          ...leftOut(
            decisions.length,
            shownDecisions.length,
            'decisões mais antigas não mostradas',
          ),
          ...shownDecisions.map(
            (decision) =>
              `- ${clip(decision.question)} → ${clip(decision.answer)} (decidido por: ${decidedBy(decision)})`,
          ),
        ]),
  ].join('\n');
}
