import {
  type RefObject,
  startTransition,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import { SHOW_WHOLE_CHAT_EVENT } from '../needs-you/go-to.ts';

/** Entries the chat renders at first (the newest), and adds with each step back (ADR 0424). */
export const CHAT_PAGE = 50;
/** Scrolled this close to the top of what is rendered, the chat renders the page before it. */
const NEAR_TOP_PIXELS = 800;

export interface ChatWindow {
  /** How many of the oldest entries are not rendered. */
  readonly hidden: number;
  /** Renders the page before the rendered entries, the ones in view staying where they are. */
  readonly showEarlier: () => void;
  /** For the list's scroll events: near the top, the page before is rendered. */
  readonly onScroll: () => void;
  /** The "Show earlier" button: when it takes focus, the browser's scroll to it loads nothing by itself. */
  readonly earlierButton: RefObject<HTMLButtonElement | null>;
}

/**
 * The chat's window over its entries (ADR 0424): a long session renders its newest `CHAT_PAGE` entries; scrolling
 * near the top of the list, or the button there, renders the page before, in a transition (React renders it in
 * slices between frames, so scrolling never waits for all of it), and the entries that were in view stay where
 * they were. Entries once rendered stay rendered. `SHOW_WHOLE_CHAT_EVENT` renders every entry, at once.
 */
export function useChatWindow(listRef: RefObject<HTMLElement | null>, entries: number): ChatWindow {
  const [start, setStart] = useState(() => Math.max(0, entries - CHAT_PAGE));
  const hidden = Math.min(start, entries);
  // The list's height below the top of the view when earlier entries were asked for, to put it back after.
  const keepFromBottom = useRef<number | null>(null);
  const earlierButton = useRef<HTMLButtonElement>(null);

  const showEarlier = () => {
    const list = listRef.current;
    if (list === null || hidden === 0 || keepFromBottom.current !== null) return;
    keepFromBottom.current = list.scrollHeight - list.scrollTop;
    startTransition(() => setStart(Math.max(0, hidden - CHAT_PAGE)));
  };

  // The earlier entries are in: the ones that were in view stay where they were.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when earlier entries were rendered
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list === null || keepFromBottom.current === null) return;
    list.scrollTop = list.scrollHeight - keepFromBottom.current;
    keepFromBottom.current = null;
  }, [start]);

  // Going to something the chat does not render (the Needs-you panel): every entry, before the dispatch returns.
  useEffect(() => {
    const showWhole = () => flushSync(() => setStart(0));
    window.addEventListener(SHOW_WHOLE_CHAT_EVENT, showWhole);
    return () => window.removeEventListener(SHOW_WHOLE_CHAT_EVENT, showWhole);
  }, []);

  const onScroll = () => {
    const list = listRef.current;
    // Not when the button took focus (the browser scrolled to it): the keyboard presses it.
    if (
      list !== null &&
      list.scrollTop < NEAR_TOP_PIXELS &&
      document.activeElement !== earlierButton.current
    )
      showEarlier();
  };

  return { hidden, showEarlier, onScroll, earlierButton };
}
