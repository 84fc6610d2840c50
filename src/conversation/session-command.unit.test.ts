import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionView } from '../agents/runtime/session-view.ts';
import {
  rehydrate,
  SESSION_EVENTS,
  type ConversationCommand,
} from '../domain/conversation/index.ts';
import { MEMORY_EVENTS } from '../domain/memory/index.ts';
import type { AppendOutcome, EventLog, NewSessionEvent, SessionEvent } from '../store/index.ts';
import { STALE_VIEW_ATTEMPTS } from './expected-version.ts';
import { handleCommand, handleConversationCommand } from './session-command.ts';
import { createSessionQueue } from './session-queue.ts';

const SESSION = 's';

/**
 * One session's log in memory, checked like the store checks it: an append with a stale expected seq is
 * refused with the typed conflict and writes nothing. `pause` runs before each read and each append, so a
 * property can interleave the processes' steps in any order.
 */
function memoryLog(pause: () => Promise<void> = async () => {}) {
  const events: SessionEvent[] = [];
  const write = (news: readonly NewSessionEvent[]): SessionEvent[] => {
    const written = news.map((event) => ({
      ...event,
      id: `e${events.length + 1}`,
      session_id: SESSION,
      seq: events.length + 1,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, events.length)).toISOString(),
      payload: event.payload,
    })) as SessionEvent[];
    events.push(...written);
    return written;
  };
  write([SESSION_EVENTS.sessionCreated.create('system', { v: 1, project_id: 'p', title: null })]);
  const append = async (
    _sessionId: string,
    news: readonly NewSessionEvent[],
    options?: { expectedSeq?: number },
  ): Promise<AppendOutcome> => {
    await pause();
    const actualSeq = events.length;
    if (options?.expectedSeq !== undefined && options.expectedSeq !== actualSeq)
      return {
        success: false,
        error: {
          kind: 'expected_seq_conflict',
          sessionId: SESSION,
          expectedSeq: options.expectedSeq,
          actualSeq,
          message: `Session ${SESSION} is at seq ${actualSeq}, not the expected ${options.expectedSeq}`,
        },
      };
    return { success: true, events: write(news), lastSeq: events.length };
  };
  const eventLog = {
    append,
    appendWithin: (_transaction: unknown, ...rest: Parameters<typeof append>) => append(...rest),
  } as unknown as EventLog;
  /**
   * One process: its own queue and views over the shared log. A `peeking` one first decides on the log as it
   * was when the process began (a view kept with no read, stale once others write: `SessionViews.peek`).
   */
  const process = (peeking = false) => {
    const kept = [...events];
    return {
      database: {} as never,
      eventLog,
      queue: createSessionQueue(),
      views: {
        peek: (): SessionView | undefined =>
          peeking ? { state: rehydrate(kept), events: kept } : undefined,
        load: async (): Promise<SessionView> => {
          await pause();
          const copy = [...events];
          return { state: rehydrate(copy), events: copy };
        },
      } as never,
    };
  };
  return { events, write, process };
}

describe('the session command handler', () => {
  it('appends what the rule decided with the expected seq, and refuses with the rule’s reason and code', async () => {
    const log = memoryLog();
    const dependencies = log.process();
    const started = await handleConversationCommand(
      dependencies,
      SESSION,
      { type: 'ActivateAgent', agent: 'criativo', actor: 'user' },
      { what: 'activating criativo', code: 'activation_refused' },
    );
    expect(started).toMatchObject({ ok: true, events: [{ seq: 2, type: 'agent.activated' }] });
    expect(
      await handleConversationCommand(
        dependencies,
        SESSION,
        { type: 'ActivateAgent', agent: 'criativo', actor: 'user' },
        { what: 'activating criativo', code: 'activation_refused' },
      ),
    ).toEqual({
      ok: false,
      status: 409,
      code: 'activation_refused',
      message: 'agent criativo is already active in this session (since seq 2)',
    });
    log.write([MEMORY_EVENTS.sessionEnded.create('user', { v: 1, reason: 'completed' })]);
    expect(
      await handleConversationCommand(
        dependencies,
        SESSION,
        { type: 'PostMessage', text: 'olá', to: null },
        { what: 'the message', code: 'not_active' },
      ),
    ).toMatchObject({ ok: false, status: 409, code: 'session_ended' });
    expect(log.events.map((event) => event.type)).toEqual([
      'session.created',
      'agent.activated',
      'session.ended',
    ]);
  });

  it('decides again on the fresh view after a conflict, and refuses when the session keeps moving', async () => {
    const log = memoryLog();
    const dependencies = log.process();
    const views: number[] = [];
    // Another process appends between each of the first two reads and their appends.
    const handled = await handleCommand(dependencies, SESSION, {
      what: 'the note',
      decide: (view) => {
        views.push(view.state.last_seq);
        if (views.length <= 2)
          log.write([SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'meanwhile' })]);
        return {
          ok: true,
          events: [SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'mine' })],
          value: view.state.last_seq,
        };
      },
    });
    expect(views).toEqual([1, 2, 3]);
    expect(handled).toMatchObject({ ok: true, value: 3, events: [{ seq: 4 }] });

    const refused = await handleCommand(dependencies, SESSION, {
      what: 'the note',
      decide: () => {
        log.write([SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'meanwhile' })]);
        return {
          ok: true,
          events: [SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'never' })],
          value: null,
        };
      },
    });
    expect(refused).toMatchObject({ ok: false, status: 409, code: 'conflict' });
    expect(refused.ok === false && refused.message).toContain(
      `the note was decided ${STALE_VIEW_ATTEMPTS} times`,
    );
    expect(
      log.events.filter((event) => (event.payload as { text?: string }).text === 'never'),
    ).toEqual([]);
  });

  it('decides first on the kept view, and again on a read when it refuses or its append conflicts', async () => {
    const log = memoryLog();
    const peeking = log.process(true);
    log.write([SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'after the kept view' })]);
    const seen: number[] = [];
    // The rule refuses until it sees the message: the kept view (seq 1) lacks it, the read has it.
    const handled = await handleCommand(peeking, SESSION, {
      what: 'the answer',
      decide: (view) => {
        seen.push(view.state.last_seq);
        return view.state.last_seq < 2
          ? { ok: false, status: 409, code: 'too_early', message: 'nothing to answer yet' }
          : {
              ok: true,
              events: [SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'answer' })],
              value: undefined,
            };
      },
    });
    expect(seen).toEqual([1, 2]);
    expect(handled).toMatchObject({ ok: true, events: [{ seq: 3 }] });
    // Accepted on the kept view, refused by its expected seq, and decided again on the read.
    const again: number[] = [];
    const accepted = await handleCommand(log.process(true), SESSION, {
      what: 'the note',
      decide: (view) => {
        again.push(view.state.last_seq);
        if (again.length === 1)
          log.write([SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'meanwhile' })]);
        return {
          ok: true,
          events: [SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'note' })],
          value: undefined,
        };
      },
    });
    expect(again).toEqual([3, 4]);
    expect(accepted).toMatchObject({ ok: true, events: [{ seq: 5 }] });
  });

  it('lets other errors through untouched', async () => {
    const dependencies = memoryLog().process();
    await expect(
      handleCommand(dependencies, SESSION, {
        what: 'x',
        decide: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
  });

  it('never lets two conflicting commands from separate processes both succeed, in any interleaving, deciding first on kept views or not', async () => {
    const conflicting: [string, (agent: string) => ConversationCommand[]][] = [
      [
        'the same agent activated twice',
        (agent) => [
          { type: 'ActivateAgent', agent, actor: 'user' },
          { type: 'ActivateAgent', agent, actor: 'user' },
        ],
      ],
      [
        'a message racing the end of the session',
        () => [{ type: 'PostMessage', text: 'olá', to: null }],
      ],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.constantFrom(...conflicting),
        fc.integer({ min: 2, max: 5 }),
        fc.boolean(),
        async (scheduler, [, commandsFor], processes, peeking) => {
          const log = memoryLog(() => scheduler.schedule(Promise.resolve()));
          const commands = Array.from({ length: processes }, () => commandsFor('criativo')).flat();
          const ending = commands[0]!.type === 'PostMessage';
          const running = commands.map((command) =>
            handleConversationCommand(log.process(peeking), SESSION, command, {
              what: command.type,
              code: 'refused',
            }),
          );
          if (ending)
            running.push(
              handleCommand(log.process(peeking), SESSION, {
                what: 'ending',
                decide: (view) =>
                  view.state.ended_at_seq === null
                    ? {
                        ok: true,
                        events: [
                          MEMORY_EVENTS.sessionEnded.create('user', { v: 1, reason: 'completed' }),
                        ],
                        value: undefined,
                      }
                    : { ok: false, status: 409, code: 'already_ended', message: 'ended' },
              }),
            );
          await scheduler.waitFor(Promise.all(running));
          const outcomes = await Promise.all(running);
          const types = log.events.map((event) => event.type);
          if (ending) {
            // Every message the log holds came before the end; every refused one names the end.
            const endAt = types.indexOf('session.ended');
            expect(types.filter((type) => type === 'session.ended')).toHaveLength(1);
            expect(types.lastIndexOf('chat.message')).toBeLessThan(endAt);
            for (const outcome of outcomes)
              if (!outcome.ok) expect(outcome.code).toBe('session_ended');
          } else {
            expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
            expect(types.filter((type) => type === 'agent.activated')).toHaveLength(1);
            for (const outcome of outcomes) if (!outcome.ok) expect(outcome.code).toBe('refused');
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
