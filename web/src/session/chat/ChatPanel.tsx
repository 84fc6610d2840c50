import { currentRules } from '../fold/apply-artifact.ts';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { t } from '../../i18n/t.ts';
import type { AnswerVersion } from '../answer-versions.ts';
import type { SessionView } from '../fold/session-view.ts';
import type { LiveText } from '../stream-reducer.ts';
import { currentLanguage } from '../../i18n/language.ts';
import { AgentLanes } from './AgentLanes.tsx';
import { AgentMessage } from './AgentMessage.tsx';
import { ChatItemView } from './ChatItemView.tsx';
import { Composer } from './Composer.tsx';
import { ReadinessButton } from './ReadinessButton.tsx';
import { StartCriativoButton } from './StartCriativoButton.tsx';
import { StreamingMessage } from './StreamingMessage.tsx';
import { TurnIndicator } from './TurnIndicator.tsx';
import { useChatWindow } from './use-chat-window.ts';
import { UserMessage } from './UserMessage.tsx';
import { readinessOpen } from '../fold/readiness-open.ts';

const NEAR_BOTTOM_PIXELS = 160;

/**
 * The chat: the agent chat once an agent is active in the session (everything that happened, one streaming
 * bubble per lane whose turn is running, each agent's status), otherwise the human chat (the person's messages only) with the button that starts Criativo.
 */
export function ChatPanel({
  sessionId,
  view,
  live,
  versions,
}: {
  sessionId: string;
  view: SessionView;
  live: LiveText[];
  /** Earlier versions of regenerated answers, by the current answer's event id. */
  versions: ReadonlyMap<string, AnswerVersion[]>;
}) {
  const mode = view.activeAgents.length > 0 ? 'agent' : 'human';
  const items = mode === 'agent' ? view.chat : view.chat.filter((item) => item.kind === 'user');
  const streaming = new Set(live.map((entry) => entry.turnId));
  const waiting = view.openTurns.filter((turn) => !streaming.has(turn.turnId));
  const language = currentLanguage();
  const listRef = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);
  const chatWindow = useChatWindow(listRef, items.length);
  // Something arrived while the person read above: a hint leads down to it.
  const [unseen, setUnseen] = useState(false);
  const liveLength = live.reduce((sum, entry) => sum + entry.text.length, 0);
  const activity = view.lastSeq + liveLength;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the chat grows, which these count
  useEffect(() => {
    const list = listRef.current;
    if (list === null) return;
    if (stickToBottom.current) list.scrollTop = list.scrollHeight;
    else setUnseen(true);
  }, [items.length, activity, waiting.length]);

  const onScroll = () => {
    const list = listRef.current;
    if (list === null) return;
    chatWindow.onScroll();
    stickToBottom.current =
      list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_BOTTOM_PIXELS;
    // Says on the page whether the list follows new activity (a test waits on it; nothing styles it).
    list.dataset['following'] = String(stickToBottom.current);
    if (stickToBottom.current) setUnseen(false);
  };
  const toBottom = () => {
    const list = listRef.current;
    if (list === null) return;
    stickToBottom.current = true;
    list.scrollTop = list.scrollHeight;
    setUnseen(false);
    list.focus({ preventScroll: true });
  };

  return (
    <section
      className="panel chat"
      data-testid="chat"
      data-mode={mode}
      aria-label={t(mode === 'agent' ? 'chat.title.agent' : 'chat.title.human')}
    >
      <h2>{t(mode === 'agent' ? 'chat.title.agent' : 'chat.title.human')}</h2>
      {mode === 'agent' && <AgentLanes lanes={view.lanes} />}
      {/* Focusable so a keyboard can scroll it when nothing in it takes focus (axe: scrollable-region-focusable). */}
      <ol
        className="chat-list"
        ref={listRef}
        onScroll={onScroll}
        data-testid="chat-list"
        tabIndex={0}
      >
        {items.length === 0 && live.length === 0 && (
          <li className="muted empty">{t('chat.empty')}</li>
        )}
        {chatWindow.hidden > 0 && (
          <ShowEarlier
            count={chatWindow.hidden}
            onClick={chatWindow.showEarlier}
            buttonRef={chatWindow.earlierButton}
          />
        )}
        {items
          .slice(chatWindow.hidden)
          .map((item) => chatEntry(item, { sessionId, view, versions, language }))}
        {mode === 'agent' &&
          live.map((entry) => (
            <StreamingMessage key={entry.turnId} live={entry} sessionId={sessionId} />
          ))}
        {mode === 'agent' && waiting.map((turn) => <TurnIndicator key={turn.turnId} turn={turn} />)}
      </ol>
      {unseen && (
        <button
          type="button"
          className="small-button new-activity"
          data-testid="new-activity"
          onClick={toBottom}
        >
          {t('chat.newActivity')}
        </button>
      )}
      {mode === 'human' && <StartCriativoButton sessionId={sessionId} />}
      {mode === 'agent' && view.activeAgents.includes('criativo') && readinessOpen(view) && (
        <ReadinessButton
          sessionId={sessionId}
          ruleCount={currentRules(view.rules).length}
          consolidating={view.openTurns.some((turn) => turn.kind === 'consolidation')}
        />
      )}
      <Composer sessionId={sessionId} activeAgents={view.activeAgents} addressee={view.addressee} />
    </section>
  );
}

/** Above the rendered entries of a long chat: renders the page before them (ADR 0424). */
function ShowEarlier({
  count,
  onClick,
  buttonRef,
}: {
  count: number;
  onClick: () => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <li className="show-earlier">
      <button
        type="button"
        className="small-button"
        data-testid="show-earlier"
        ref={buttonRef}
        onClick={onClick}
      >
        {t('chat.showEarlier', { count })}
      </button>
    </li>
  );
}

/**
 * One entry of the chat: a stored message (memoised), or any other entry by its kind. A function, not a
 * component, so a new event renders no wrapper per entry (a 500-message chat re-renders none of its messages).
 */
function chatEntry(
  item: SessionView['chat'][number],
  {
    sessionId,
    view,
    versions,
    language,
  }: {
    sessionId: string;
    view: SessionView;
    versions: ReadonlyMap<string, AnswerVersion[]>;
    language: string;
  },
) {
  const key = `${item.kind}-${item.seq}`;
  // Messages never change once stored: memoised on their values, a new event re-renders none of them.
  if (item.kind === 'user')
    return (
      <UserMessage key={key} seq={item.seq} text={item.text} to={item.to} language={language} />
    );
  if (item.kind === 'agent')
    return (
      <AgentMessage
        key={key}
        seq={item.seq}
        agent={item.agent}
        text={item.text}
        stopped={item.stopped === true}
        sessionId={sessionId}
        regenerateTurnId={view.controls.regenerate.includes(item.turnId) ? item.turnId : null}
        traceTurnId={item.turnId === '' ? null : item.turnId}
        versions={versions.get(item.eventId)}
        language={language}
      />
    );
  return (
    <ChatItemView
      key={key}
      item={item}
      handoffs={view.handoffs}
      sessionId={sessionId}
      controls={view.controls}
    />
  );
}
