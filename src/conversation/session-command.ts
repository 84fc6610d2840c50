import type { SessionView } from '../agents/index.ts';
import { decide, type ConversationCommand } from '../domain/conversation/index.ts';
import {
  AppendConflictError,
  appendedOrThrow,
  type NewSessionEvent,
  type Queryable,
  type SessionEvent,
} from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { onKeptViewFirst, retryOnStaleView } from './expected-version.ts';
import { SESSION_LANE } from './session-queue.ts';

/** What a command's rule gives on a view: the events to append and what to answer with them, or a refusal. */
export type CommandDecision<T> =
  | { ok: true; events: readonly NewSessionEvent[]; value: T }
  | Refusal;

/** A handled command: the events appended and the rule's answer, or the refusal (the rule's or a conflict's). */
export type Handled<T> = { ok: true; events: SessionEvent[]; value: T } | Refusal;

/**
 * A session-wide command: its rule over the session's view, and what a refusal after conflicts names
 * ("activating po was decided 25 times …"). A `transactional` rule is given the open transaction: rows it
 * writes there commit with the events, and roll back with a conflicting append.
 */
export type SessionCommand<T> =
  | {
      what: string;
      transactional?: false;
      decide(view: SessionView): CommandDecision<T> | Promise<CommandDecision<T>>;
    }
  | {
      what: string;
      transactional: true;
      decide(view: SessionView, within: Queryable): Promise<CommandDecision<T>>;
    };

/**
 * The one session command handler: in the session's own lane, load the view → decide → refuse with the rule's
 * reason, or append with the expected seq `view.state.last_seq`; when another lane or process appended in
 * between (the store's `AppendConflictError`), decide again on the fresh view, and after `STALE_VIEW_ATTEMPTS`
 * refuse with a 409 `conflict` (expected-version.ts). Nothing is appended on a view the rule did not see.
 */
export function handleCommand<T>(
  dependencies: Pick<ConversationDependencies, 'database' | 'eventLog' | 'queue' | 'views'>,
  sessionId: string,
  command: SessionCommand<T>,
): Promise<Handled<T>> {
  const appendDecided = async (
    seen: number,
    decision: CommandDecision<T>,
    within: Queryable | null,
  ): Promise<Handled<T>> => {
    if (!decision.ok) return decision;
    const options = { expectedSeq: seen };
    const appended = appendedOrThrow(
      within === null
        ? await dependencies.eventLog.append(sessionId, decision.events, options)
        : await dependencies.eventLog.appendWithin(within, sessionId, decision.events, options),
    );
    return { ok: true, events: appended.events, value: decision.value };
  };
  // The seq the rule saw is taken before it runs: lanes fold into the same view while an async rule awaits.
  const attempt = (view: SessionView): Promise<Handled<T>> => {
    const seen = view.state.last_seq;
    return command.transactional === true
      ? dependencies.database.transaction(async (transaction) =>
          appendDecided(seen, await command.decide(view, transaction), transaction),
        )
      : Promise.resolve(command.decide(view)).then((decision) =>
          appendDecided(seen, decision, null),
        );
  };
  // A rule that needs no transaction decides first on the kept view (ADR 0262); its refusal or conflict is
  // decided again on views read from the log.
  const onKept = async (view: SessionView): Promise<Handled<T> | undefined> => {
    try {
      const handled = await attempt(view);
      return handled.ok ? handled : undefined;
    } catch (error) {
      if (error instanceof AppendConflictError) return undefined;
      throw error;
    }
  };
  const onRead = () => retryOnStaleView(dependencies, sessionId, command.what, attempt);
  return dependencies.queue.enqueue(sessionId, SESSION_LANE, () =>
    command.transactional === true
      ? onRead()
      : onKeptViewFirst(dependencies.views, sessionId, onKept, onRead),
  );
}

/**
 * A command of the conversation decider through `handleCommand`: a refusal is a 409 with the decision's
 * `code` when it names its rule, `refusedCode` otherwise.
 */
export function handleConversationCommand(
  dependencies: Pick<ConversationDependencies, 'database' | 'eventLog' | 'queue' | 'views'>,
  sessionId: string,
  command: ConversationCommand,
  refused: { what: string; code: string },
): Promise<Handled<undefined>> {
  return handleCommand(dependencies, sessionId, {
    what: refused.what,
    decide: (view) => {
      const decision = decide(command, view.state);
      return decision.ok
        ? { ok: true, events: decision.events, value: undefined }
        : refusal(409, decision.code ?? refused.code, decision.reason);
    },
  });
}
