import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import type { ChatItem, HandoffView } from '../fold/session-view.ts';
import { ActionNote } from './ActionNote.tsx';
import { BudgetRefusedNote } from './BudgetRefusedNote.tsx';
import { CompactionDivider } from './CompactionDivider.tsx';
import { CriativoGreeting } from './CriativoGreeting.tsx';
import { HandoffDivider } from './HandoffDivider.tsx';
import { StepsRow } from './StepsRow.tsx';
import { SystemNote } from './SystemNote.tsx';
import { TurnFailedNote } from './TurnFailedNote.tsx';

/**
 * One entry of the chat other than a message, by kind (the chat renders messages itself, memoised);
 * `controls` are the turns the person may retry or regenerate now.
 */
export function ChatItemView({
  item,
  handoffs,
  sessionId,
  controls,
}: {
  item: Exclude<ChatItem, { kind: 'user' | 'agent' }>;
  handoffs: Readonly<Record<string, HandoffView>>;
  sessionId: string;
  controls: { retry: string[]; regenerate: string[] };
}) {
  switch (item.kind) {
    case 'stopped':
      return (
        <SystemNote testId="turn-stopped" data={{ agent: item.agent, seq: item.seq }}>
          {t('turn.stoppedEmpty', { agent: agentName(item.agent) })}
        </SystemNote>
      );
    case 'activated':
      return (
        <>
          <SystemNote testId="agent-activated" data={{ agent: item.agent, seq: item.seq }}>
            {t('chat.activated', { agent: agentName(item.agent) })}
          </SystemNote>
          {item.agent === 'criativo' && (
            <CriativoGreeting seq={item.seq} recorded={item.greeting} />
          )}
        </>
      );
    case 'handoff': {
      const handoff = handoffs[item.handoffId];
      return handoff ? <HandoffDivider handoff={handoff} /> : null;
    }
    case 'failed':
      return (
        <TurnFailedNote
          seq={item.seq}
          agent={item.agent}
          reason={item.reason}
          message={item.message}
          {...(controls.retry.includes(item.turnId)
            ? { retry: { sessionId, turnId: item.turnId } }
            : {})}
        />
      );
    case 'budget':
      return <BudgetRefusedNote item={item} />;
    case 'readiness':
      return <SystemNote testId="readiness-confirmed">{t('chat.readiness')}</SystemNote>;
    case 'brief':
      return (
        <SystemNote testId="brief-note">
          {item.version > 1
            ? t('chat.briefVersion', { title: item.title, version: item.version })
            : t('chat.brief', { title: item.title })}
        </SystemNote>
      );
    case 'limit':
      return (
        <SystemNote testId="limit-reached" tone="warning">
          {t('chat.limit', { agent: agentName(item.agent), ceiling: item.ceiling })}
        </SystemNote>
      );
    case 'action':
      return <ActionNote action={item.action} />;
    case 'compaction':
      return <CompactionDivider item={item} />;
    case 'window':
      return (
        <SystemNote testId="context-window-note" tone="warning" data={{ agent: item.agent }}>
          {t('chat.window', {
            agent: agentName(item.agent),
            reason: item.reason,
            count: item.leftOut,
          })}
        </SystemNote>
      );
    case 'steps':
      return <StepsRow seq={item.seq} agent={item.agent} steps={item.steps} />;
  }
}
