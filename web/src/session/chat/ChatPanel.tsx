import { currentRules } from '../fold/apply-artifact.ts';
import { startTransition, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
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
import { UserMessage } from './UserMessage.tsx';
import { readinessOpen } from '../fold/readiness-open.ts';
import { SHOW_WHOLE_CHAT_EVENT } from '../needs-you/go-to.ts';

const NEAR_BOTTOM_PIXELS = 160;
/** Entries the chat renders at first (the newest), and adds with each step back (ADR 0424). */
export const CHAT_PAGE = 50;
/** Scrolled this close to the top of what is rendered, the chat renders the page before it. */
const NEAR_TOP_PIXELS = 800;

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
  // A long session renders its newest entries only; scrolling near the top (or the button there) renders the
  // page before, where the person was kept in place. The entries before `hidden` are not rendered.
  const [hidden, setHidden] = useState(() => Math.max(0, items.length - CHAT_PAGE));
  const shown = Math.min(hidden, items.length);
  // The list's height below the top of the view when earlier entries were asked for, to put it back after.
  const keepFromBottom = useRef<number | null>(null);
  const earlierButton = useRef<HTMLButtonElement>(null);
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

  const showEarlier = () => {
    const list = listRef.current;
    if (list === null || shown === 0 || keepFromBottom.current !== null) return;
    keepFromBottom.current = list.scrollHeight - list.scrollTop;
    // A transition: React renders the page in slices between frames, so scrolling never waits for all of it.
    startTransition(() => setHidden(Math.max(0, shown - CHAT_PAGE)));
  };

  // The earlier entries are in: the ones that were in view stay where they were.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when earlier entries were rendered
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list === null || keepFromBottom.current === null) return;
    list.scrollTop = list.scrollHeight - keepFromBottom.current;
    keepFromBottom.current = null;
  }, [hidden]);

  // Going to something the chat does not render (the Needs-you panel): render every entry, at once.
  useEffect(() => {
    const showWhole = () => flushSync(() => setHidden(0));
    window.addEventListener(SHOW_WHOLE_CHAT_EVENT, showWhole);
    return () => window.removeEventListener(SHOW_WHOLE_CHAT_EVENT, showWhole);
  }, []);

  const onScroll = () => {
    const list = listRef.current;
    if (list === null) return;
    // Not when the button took focus (the browser scrolled to it): the keyboard presses it.
    if (list.scrollTop < NEAR_TOP_PIXELS && document.activeElement !== earlierButton.current)
      showEarlier();
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
        {shown > 0 && (
          <li className="show-earlier">
            <button
              type="button"
              className="small-button"
              data-testid="show-earlier"
              ref={earlierButton}
              onClick={showEarlier}
            >
              {t('chat.showEarlier', { count: shown })}
            </button>
          </li>
        )}
        {items.slice(shown).map((item) => chatEntry(item, { sessionId, view, versions, language }))}
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
