import { agentName } from '../i18n/agent-name.ts';
import { t } from '../i18n/t.ts';
import type { ChatItem } from './fold/session-view.ts';
import type { LineStage } from './fold/line-stage.ts';

/** What the session's live region compares between two renders. */
export interface Watched {
  needsYou: number;
  stage: LineStage;
  merged: boolean;
  /** The newest agent answer in the chat (its seq and author), if any. */
  lastAnswer: { seq: number; agent: string } | null;
  /** Agents whose answer is streaming now. */
  streaming: string[];
}

/** The newest agent answer of a chat, for `Watched.lastAnswer`. */
export function lastAnswerOf(chat: ChatItem[]): Watched['lastAnswer'] {
  for (let at = chat.length - 1; at >= 0; at -= 1) {
    const item = chat[at];
    if (item?.kind === 'agent') return { seq: item.seq, agent: item.agent };
  }
  return null;
}

/**
 * What changed from `before` to `after` that a person using a screen reader should hear, in one sentence each:
 * more items in Needs you, an agent starting to answer or having answered, the line reaching a new stage. Never
 * the streamed text itself (that would read every token), and nothing when nothing of this changed (`null`).
 */
export function announcement(before: Watched, after: Watched): string | null {
  const said: string[] = [];
  if (after.needsYou > before.needsYou)
    said.push(
      t(after.needsYou === 1 ? 'live.needsYou.one' : 'live.needsYou.many', {
        count: after.needsYou,
      }),
    );
  for (const agent of after.streaming)
    if (!before.streaming.includes(agent))
      said.push(t('live.answering', { agent: agentName(agent) }));
  if (after.lastAnswer !== null && after.lastAnswer.seq !== before.lastAnswer?.seq)
    said.push(t('live.answered', { agent: agentName(after.lastAnswer.agent) }));
  if (after.merged && !before.merged) said.push(t('live.merged'));
  else if (after.stage !== before.stage)
    said.push(t('live.stage', { stage: t(`stepper.${after.stage}`) }));
  return said.length === 0 ? null : said.join(' ');
}
