import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import type { ActionView } from '../fold/session-view.ts';
import { ActionWhat } from '../panels/ActionWhat.tsx';
import { decisionText } from './StepsRow.tsx';
import { SystemNote } from './SystemNote.tsx';

/** A proposed action in the chat: what it would run, and, once answered, who approved or denied it. */
export function ActionNote({ action }: { action: ActionView }) {
  const agent = agentName(action.agent);
  return (
    <SystemNote
      testId="action-note"
      tone={action.decision === null ? 'warning' : 'info'}
      data={{ status: action.status }}
    >
      {action.decision === null
        ? t('chat.actionWaits', { agent })
        : t('chat.actionAnswered', { agent })}
      <ActionWhat action={action} />
      {action.decision !== null && (
        <span className="action-decision" data-testid="action-decision">
          {decisionText(action.decision)}
        </span>
      )}
    </SystemNote>
  );
}
