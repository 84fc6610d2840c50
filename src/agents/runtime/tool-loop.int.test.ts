import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import {
  createScriptedProvider,
  type ModelProvider,
  type ModelRequest,
  type ScriptInput,
} from '../../gateway/providers/index.ts';
import { createHooks, registerHook } from '../../harness/index.ts';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';
import { eventTypes, newSessionThroughApi } from '../../testing/scripted-forja.ts';
import pino from 'pino';
import { assessCommand } from '../../domain/terminal/index.ts';
import { defineTool } from './agent-tool.ts';
import type { LoopAgent } from './tool-loop.ts';

/** A test agent with one direct tool and one proposed tool, each counting its runs. */
function testerAgent(runs: { note: string[]; deploy: string[] }, maxIterations = 5): LoopAgent {
  return {
    slug: 'tester',
    maxIterations,
    maxOutputTokens: 200,
    buildSystemPrompt: async () => 'You test the loop.',
    tools: [
      defineTool({
        name: 'note',
        description: 'Write a note',
        mode: 'direct',
        parameters: z.strictObject({ text: z.string().min(1) }),
        run: async ({ text }) => (runs.note.push(text), { ok: true, result: 'noted' }),
      }),
      defineTool({
        name: 'dump',
        description: 'Record a value nested deeper than the log stores (a tool with a bug)',
        mode: 'direct',
        parameters: z.strictObject({}),
        run: async () => {
          let deep: unknown = 'end';
          for (let level = 0; level < 1000; level += 1) deep = [deep];
          return {
            ok: true,
            result: 'dumped',
            events: [{ type: 'x.dump', actor: 'tester', payload: { deep } }],
          };
        },
      }),
      defineTool({
        name: 'deploy',
        description: 'Deploy',
        mode: 'proposed',
        parameters: z.strictObject({ target: z.string() }),
        // Like the terminal's: the verdict the person sees beside Approve.
        assessRisk: ({ target }) => assessCommand(`deploy ${target}`),
        run: async ({ target }) => (runs.deploy.push(target), { ok: true, result: 'deployed' }),
      }),
    ],
  };
}

describe.each(testDatabaseEngines())('tool loop on $name', (engine) => {
  const opened: Forja[] = [];
  const databases: Database[] = [];
  afterEach(async () => {
    for (const forja of opened.splice(0)) await forja.close();
    for (const database of databases.splice(0)) await database.close();
  });
  const openDatabase = async () => {
    const database = await engine.open();
    databases.push(database);
    return database;
  };

  /** A Forja on `database`; calling it again on the same database is a restart (nothing in memory survives). */
  async function forjaOn(
    database: Database,
    script: ScriptInput,
    runs: { note: string[]; deploy: string[] },
    extra: {
      startAt?: Record<string, number>;
      maxIterations?: number;
      hooks?: ReturnType<typeof createHooks>;
      provider?: ModelProvider;
      env?: Record<string, string>;
    } = {},
  ) {
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    const provider = createScriptedProvider({
      script,
      ...(extra.startAt ? { startAt: extra.startAt } : {}),
    });
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: extra.env ?? {},
      database,
      provider: extra.provider ?? provider,
      extraAgents: [testerAgent(runs, extra.maxIterations)],
      ...(extra.hooks ? { hooks: extra.hooks } : {}),
    });
    opened.push(forja);
    return { forja, provider };
  }
  async function testerSession(forja: Forja) {
    const { sessionId, projectId } = await newSessionThroughApi(forja);
    // The tester is not user-started: open it as an accepted handoff would.
    await forja.eventLog.append(sessionId, [
      {
        type: 'agent.activated',
        actor: 'system',
        payload: { v: 1, agent: 'tester', handoff_id: null },
      },
    ]);
    return { sessionId, projectId };
  }

  it('runs direct tools, answers invalid arguments and unknown tools to the model, and stops when the model stops', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const { forja, provider } = await forjaOn(
      database,
      {
        turns: [
          {
            agent: 'tester',
            text: 'one',
            tool_calls: [
              { name: 'note', arguments: { text: 'first' } },
              { name: 'note', arguments: { text: '' } },
              { name: 'launch', arguments: {} },
            ],
          },
          { agent: 'tester', text: 'done' },
        ],
      },
      runs,
    );
    const { sessionId } = await testerSession(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'go' });
    await forja.conversation.idle(sessionId);
    expect(runs.note).toEqual(['first']);
    const completed = (await forja.eventLog.read(sessionId))
      .filter((event) => event.type === 'tool.completed')
      .map((event) => event.payload as { ok: boolean; result: string });
    expect(completed.map((result) => result.ok)).toEqual([true, false, false]);
    expect(completed[1]!.result).toContain('Invalid arguments for note: text:');
    expect(completed[2]!.result).toContain('Unknown tool "launch"');
    expect((await eventTypes(forja, sessionId)).slice(-2).map(([, type]) => type)).toEqual([
      'agent.response',
      'turn.ended',
    ]);
    provider.assertAllTurnsConsumed();
  });

  it('lets a pre_tool_use hook halt a call, whose reason is the tool result', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const hooks = registerHook(createHooks(), 'pre_tool_use', {
      name: 'no-secrets',
      run: (payload) =>
        (payload as { arguments: { text?: string } }).arguments.text === 'secret'
          ? { halt: 'notes must not hold secrets' }
          : undefined,
    });
    const seen: unknown[] = [];
    const withPost = registerHook(hooks, 'post_tool_use', {
      name: 'audit',
      run: (payload) => void seen.push(payload),
    });
    const { forja } = await forjaOn(
      database,
      {
        turns: [
          {
            agent: 'tester',
            text: '',
            tool_calls: [{ name: 'note', arguments: { text: 'secret' } }],
          },
          { agent: 'tester', text: 'ok' },
        ],
      },
      runs,
      { hooks: withPost },
    );
    const { sessionId } = await testerSession(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'go' });
    await forja.conversation.idle(sessionId);
    expect(runs.note).toEqual([]);
    const completed = (await forja.eventLog.read(sessionId)).find(
      (event) => event.type === 'tool.completed',
    )!;
    expect(completed.payload).toMatchObject({
      ok: false,
      result: expect.stringContaining('no-secrets hook: notes must not hold secrets'),
    });
    expect(seen).toHaveLength(1);
  });

  it('runs a tool with the arguments a pre_tool_use hook replaced (checked again) and records the result a post_tool_use hook replaced', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    let hooks = registerHook(createHooks(), 'pre_tool_use', {
      name: 'redact',
      run: (payload) => {
        const { text } = payload.arguments as { text: string };
        if (text === 'secret')
          return { payload: { ...payload, arguments: { text: '[redacted]' } } };
        if (text === 'blank') return { payload: { ...payload, arguments: { text: '' } } };
        return undefined;
      },
    });
    hooks = registerHook(hooks, 'post_tool_use', {
      name: 'stamp',
      run: (payload) =>
        payload.outcome.ok
          ? { payload: { ...payload, outcome: { ...payload.outcome, result: 'noted (audited)' } } }
          : undefined,
    });
    const { forja } = await forjaOn(
      database,
      {
        turns: [
          {
            agent: 'tester',
            text: '',
            tool_calls: [
              { name: 'note', arguments: { text: 'secret' } },
              { name: 'note', arguments: { text: 'blank' } },
            ],
          },
          { agent: 'tester', text: 'ok' },
        ],
      },
      runs,
      { hooks },
    );
    const { sessionId } = await testerSession(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'go' });
    await forja.conversation.idle(sessionId);
    expect(runs.note).toEqual(['[redacted]']);
    const completed = (await forja.eventLog.read(sessionId))
      .filter((event) => event.type === 'tool.completed')
      .map((event) => event.payload as { ok: boolean; result: string });
    expect(completed[0]).toMatchObject({ ok: true, result: 'noted (audited)' });
    expect(completed[1]).toMatchObject({
      ok: false,
      result: expect.stringContaining(
        'a pre_tool_use hook replaced its arguments with ones the tool refuses. Invalid arguments for note: text:',
      ),
    });
  });

  it('records toolloop.limit_reached at the iteration ceiling and ends the turn', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const looping = Array.from({ length: 3 }, (_, index) => ({
      agent: 'tester',
      text: '',
      tool_calls: [{ name: 'note', arguments: { text: `n${index}` } }],
    }));
    const { forja } = await forjaOn(database, { turns: looping }, runs, { maxIterations: 3 });
    const { sessionId } = await testerSession(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'loop forever',
    });
    await forja.conversation.idle(sessionId);
    const [last, ended] = (await forja.eventLog.read(sessionId)).slice(-2);
    expect(ended).toMatchObject({ type: 'turn.ended', payload: { outcome: 'limit_reached' } });
    expect(last).toMatchObject({
      type: 'toolloop.limit_reached',
      payload: { agent: 'tester', iterations: 3, ceiling: 3 },
    });
    expect(runs.note).toEqual(['n0', 'n1', 'n2']);
  });

  it('pauses on a proposed action, which survives a restart and, approved, runs exactly once', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const script: ScriptInput = {
      turns: [
        {
          agent: 'tester',
          text: 'Shall I deploy?',
          tool_calls: [{ name: 'deploy', arguments: { target: 'prod && sudo reboot' } }],
        },
        { agent: 'tester', text: 'Deployed.' },
      ],
    };
    const first = await forjaOn(database, script, runs);
    const { sessionId } = await testerSession(first.forja);
    await requestJson(first.forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'deploy please',
    });
    await first.forja.conversation.idle(sessionId);
    const proposed = (await first.forja.eventLog.read(sessionId)).at(-1)!;
    expect(proposed).toMatchObject({
      type: 'action.proposed',
      payload: {
        tool: 'deploy',
        args: { target: 'prod && sudo reboot' },
        risk: { risky: true, reasons: [{ rule: 'superuser' }] },
      },
    });
    expect(runs.deploy).toEqual([]);

    // Restart: a new Forja on the same database, the scripted model resumed where it was.
    const second = await forjaOn(database, script, runs, { startAt: first.provider.position() });
    const actionId = (proposed.payload as { action_id: string }).action_id;
    expect(
      await requestJson(second.forja, 'POST', `/api/actions/${actionId}/approve`),
    ).toMatchObject({ status: 202, body: { status: 'approved' } });
    expect(
      (await requestJson(second.forja, 'POST', `/api/actions/${actionId}/approve`)).status,
    ).toBe(409);
    await second.forja.conversation.idle(sessionId);
    expect(runs.deploy).toEqual(['prod && sudo reboot']);
    expect((await eventTypes(second.forja, sessionId)).slice(-5).map(([, type]) => type)).toEqual([
      'action.proposed',
      'action.approved',
      'tool.completed',
      'agent.response',
      'turn.ended',
    ]);
    expect((await requestJson(second.forja, 'POST', `/api/actions/${actionId}/deny`)).status).toBe(
      409,
    );
  });

  it("reads a message the person sent while its tool call waited after that call's result (a request a strict provider takes)", async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const { forja, provider } = await forjaOn(
      database,
      {
        turns: [
          {
            agent: 'tester',
            text: '',
            tool_calls: [{ name: 'deploy', arguments: { target: 'staging' } }],
          },
          // The scripted model refuses a request whose message sits between a call and its result (HTTP 400).
          {
            agent: 'tester',
            text: 'Deployed; noted.',
            expect: { messages: ['deployed', 'deadline is 20:00'] },
          },
          // The message came after the turn began, so the lane still owes it a turn of its own.
          { agent: 'tester', text: 'Noted: 20:00.' },
        ],
      },
      runs,
    );
    const { sessionId } = await testerSession(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'deploy?' });
    await forja.conversation.idle(sessionId);
    const actionId = (
      (await forja.eventLog.read(sessionId)).at(-1)!.payload as { action_id: string }
    ).action_id;
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'the deadline is 20:00 now',
    });
    await forja.conversation.idle(sessionId);
    expect((await requestJson(forja, 'POST', `/api/actions/${actionId}/approve`)).status).toBe(202);
    await forja.conversation.idle(sessionId);
    expect(runs.deploy).toEqual(['staging']);
    const answers = async () =>
      (await forja.eventLog.read(sessionId))
        .filter((event) => event.type === 'agent.response')
        .map((event) => (event.payload as { text: string }).text);
    await expect
      .poll(answers, { timeout: 20_000 })
      .toEqual(['', 'Deployed; noted.', 'Noted: 20:00.']);
    await forja.conversation.idle(sessionId);
    provider.assertAllTurnsConsumed();
  });

  it('tells the model a call cut by its output cap is to be declared in parts', async () => {
    const requests: ModelRequest[] = [];
    // A model that stops at the output cap in the middle of a call's arguments, then answers.
    const cutting: ModelProvider = {
      name: 'cutting',
      model: 'cut-at-the-cap',
      async *stream(request) {
        requests.push(request);
        if (requests.length === 1) {
          const rawArguments = '{"text": "a very long no';
          yield {
            type: 'tool-call',
            id: 'c1',
            name: 'note',
            rawArguments,
            arguments: undefined,
            parseError: 'Unterminated string',
          };
          yield { type: 'usage', inputTokens: 10, outputTokens: 200, estimated: false };
          yield { type: 'finish', reason: 'length' };
        } else {
          yield { type: 'text-delta', text: 'I will write it in parts.' };
          yield { type: 'usage', inputTokens: 10, outputTokens: 5, estimated: false };
          yield { type: 'finish', reason: 'stop' };
        }
      },
    };
    const runs = { note: [] as string[], deploy: [] as string[] };
    const { forja } = await forjaOn(await openDatabase(), { turns: [] }, runs, {
      provider: cutting,
    });
    const { sessionId } = await testerSession(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'write it all',
    });
    await forja.conversation.idle(sessionId);
    expect(runs.note).toEqual([]);
    const result = requests[1]?.messages.find((message) => message.role === 'tool');
    expect(result?.content).toContain('cut at 200 output tokens (your output cap)');
    expect(result?.content).toContain('Declare it in parts');
  });

  it('tells the model when the person denies an action, and goes on', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const { forja } = await forjaOn(
      database,
      {
        turns: [
          {
            agent: 'tester',
            text: '',
            tool_calls: [{ name: 'deploy', arguments: { target: 'prod' } }],
          },
          { agent: 'tester', text: 'Understood, not deploying.' },
        ],
      },
      runs,
    );
    const { sessionId } = await testerSession(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'deploy?' });
    await forja.conversation.idle(sessionId);
    const actionId = (
      (await forja.eventLog.read(sessionId)).at(-1)!.payload as { action_id: string }
    ).action_id;
    expect(
      (
        await requestJson(forja, 'POST', `/api/actions/${actionId}/deny`, {
          reason: 'Friday afternoon',
        })
      ).status,
    ).toBe(202);
    await forja.conversation.idle(sessionId);
    expect(runs.deploy).toEqual([]);
    const events = await forja.eventLog.read(sessionId);
    expect(events.find((event) => event.type === 'tool.completed')!.payload).toMatchObject({
      ok: false,
      result: expect.stringContaining('Friday afternoon'),
    });
    expect(events.at(-1)).toMatchObject({ type: 'turn.ended', payload: { outcome: 'answered' } });
    expect(events.at(-2)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'Understood, not deploying.' },
    });
    expect((await requestJson(forja, 'POST', '/api/actions/no-such-action/approve')).status).toBe(
      400,
    );
  });

  it('resumes from the log a loop whose process was killed between a response and its tool runs', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const script: ScriptInput = {
      turns: [
        {
          agent: 'tester',
          text: 'Noting.',
          tool_calls: [
            { name: 'note', arguments: { text: 'a' } },
            { name: 'note', arguments: { text: 'b' } },
          ],
        },
        { agent: 'tester', text: 'All noted.' },
      ],
    };
    const first = await forjaOn(database, script, runs);
    const { sessionId } = await testerSession(first.forja);
    // What a killed process leaves: the message, the turn start and the model's response with its calls — nothing after.
    const turnId = 'turn-killed';
    await first.forja.eventLog.append(sessionId, [
      { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'note a and b' } },
      {
        type: 'turn.started',
        actor: 'tester',
        payload: { v: 1, agent: 'tester', turn_id: turnId, kind: 'message' },
      },
      {
        type: 'agent.response',
        actor: 'tester',
        payload: {
          v: 1,
          agent: 'tester',
          turn_id: turnId,
          text: 'Noting.',
          tool_calls: [
            { id: 'call_1', name: 'note', arguments: { text: 'a' } },
            { id: 'call_2', name: 'note', arguments: { text: 'b' } },
          ],
        },
      },
      {
        type: 'tool.completed',
        actor: 'tester',
        payload: {
          v: 1,
          agent: 'tester',
          tool_call_id: 'call_1',
          tool: 'note',
          args: { text: 'a' },
          ok: true,
          result: 'noted',
        },
      },
    ]);
    const second = await forjaOn(database, script, runs, { startAt: { tester: 1 } });
    const resumed = await second.forja.conversation.resumeInterruptedTurns();
    expect(resumed.map((turn) => turn.sessionId)).toEqual([sessionId]);
    await resumed[0]!.result;
    expect(runs.note).toEqual(['b']);
    const types = (await eventTypes(second.forja, sessionId)).map(([, type]) => type);
    expect(types.slice(-4)).toEqual([
      'tool.completed',
      'tool.completed',
      'agent.response',
      'turn.ended',
    ]);
    expect(types.filter((type) => type === 'agent.response')).toHaveLength(2);
    expect(await second.forja.conversation.resumeInterruptedTurns()).toEqual([]);
  });
  /** The person's message to the tester, answered before it returns. */
  async function say(forja: Forja, sessionId: string, text: string) {
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text })).status,
    ).toBe(201);
    await forja.conversation.idle(sessionId);
  }
  /** What ended the session's last turn: the event before its `turn.ended`, which is the log's last. */
  const lastOf = async (forja: Forja, sessionId: string) => {
    const [ending, ended] = (await forja.eventLog.read(sessionId, { limit: 10_000 })).slice(-2);
    expect(ended?.type).toBe('turn.ended');
    return ending!;
  };

  it('takes at most 64 tool calls of one answer and tells the model, with the limit, that the rest were refused', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const calls = Array.from({ length: 3000 }, (_, index) => ({
      name: 'note',
      arguments: { text: `rule ${index}` },
    }));
    const { forja, provider } = await forjaOn(
      database,
      {
        turns: [
          { agent: 'tester', text: 'Recording everything.', tool_calls: calls },
          {
            agent: 'tester',
            text: 'I will record the rest in parts.',
            expect: {
              messages: [
                'This answer made 3000 tool calls; Forja takes at most 64 from one answer (FORJA_MAX_TOOL_CALLS)',
              ],
            },
          },
        ],
      },
      runs,
    );
    const { sessionId } = await testerSession(forja);
    await say(forja, sessionId, 'record every rule');
    expect(runs.note).toEqual(calls.slice(0, 64).map((call) => call.arguments.text));
    const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const response = events.find((event) => event.type === 'agent.response')!;
    expect((response.payload as { tool_calls: unknown[] }).tool_calls).toHaveLength(65);
    const completed = events.filter((event) => event.type === 'tool.completed');
    expect(completed).toHaveLength(65);
    expect(completed.at(-1)!.payload).toMatchObject({ ok: false, tool: 'note' });
    expect(events.at(-1)?.type).toBe('turn.ended');
    expect(events.at(-2)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'I will record the rest in parts.' },
    });
    provider.assertAllTurnsConsumed();
  });

  it('cuts an answer past FORJA_MAX_ANSWER_CHARS and refuses arguments past FORJA_MAX_TOOL_ARGUMENT_CHARS, telling the model each limit', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const { forja, provider } = await forjaOn(
      database,
      {
        turns: [
          {
            agent: 'tester',
            text: '',
            tool_calls: [{ name: 'note', arguments: { text: 'x'.repeat(5000) } }],
          },
          {
            agent: 'tester',
            text: 'y'.repeat(5000),
            expect: {
              messages: ['Forja takes at most 1024 for one call (FORJA_MAX_TOOL_ARGUMENT_CHARS)'],
            },
          },
          {
            agent: 'tester',
            text: 'Shorter now.',
            expect: {
              messages: [
                `${'y'.repeat(1024)}\n\n[Forja cut this answer at 1024 characters (FORJA_MAX_ANSWER_CHARS); the other 3976 characters were not stored.]`,
              ],
            },
          },
        ],
      },
      runs,
      { env: { FORJA_MAX_ANSWER_CHARS: '1024', FORJA_MAX_TOOL_ARGUMENT_CHARS: '1024' } },
    );
    const { sessionId } = await testerSession(forja);
    await say(forja, sessionId, 'write a long note');
    expect(runs.note).toEqual([]);
    const refused = (await forja.eventLog.read(sessionId)).find(
      (event) => event.type === 'agent.response',
    )!;
    expect(refused.payload).toMatchObject({ tool_calls: [{ name: 'note', arguments: null }] });
    const answer = (await lastOf(forja, sessionId)).payload as { text: string };
    expect(answer.text).toBe(
      `${'y'.repeat(1024)}\n\n[Forja cut this answer at 1024 characters (FORJA_MAX_ANSWER_CHARS); the other 3976 characters were not stored.]`,
    );
    await say(forja, sessionId, 'and now?');
    expect(await lastOf(forja, sessionId)).toMatchObject({ payload: { text: 'Shorter now.' } });
    provider.assertAllTurnsConsumed();
  });

  it('refuses a NUL in tool arguments, stores a lone surrogate as U+FFFD, and the lane answers the next message, also after a restart', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const script: ScriptInput = {
      turns: [
        {
          agent: 'tester',
          text: 'half a pair \uD800 here',
          tool_calls: [{ name: 'note', arguments: { text: 'a\u0000b' } }],
        },
        {
          agent: 'tester',
          text: 'Noted without it.',
          expect: {
            messages: [
              'half a pair \uFFFD here',
              'The arguments of note hold a NUL character or a lone surrogate at .text',
            ],
          },
        },
        { agent: 'tester', text: 'Still answering.', expect: { messages: ['after the restart'] } },
      ],
    };
    const first = await forjaOn(database, script, runs);
    const { sessionId } = await testerSession(first.forja);
    await say(first.forja, sessionId, 'note a NUL');
    expect(runs.note).toEqual([]);
    expect(await lastOf(first.forja, sessionId)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'Noted without it.' },
    });

    const second = await forjaOn(database, script, runs, { startAt: first.provider.position() });
    expect(await second.forja.conversation.resumeInterruptedTurns()).toEqual([]);
    await say(second.forja, sessionId, 'after the restart');
    expect(await lastOf(second.forja, sessionId)).toMatchObject({
      payload: { text: 'Still answering.' },
    });
    expect(runs.note).toEqual([]);
    second.provider.assertAllTurnsConsumed();
  });

  it('ends the turn with turn.failed when what a step produced cannot be stored, and the lane answers the next message, also after a restart', async () => {
    const database = await openDatabase();
    const runs = { note: [] as string[], deploy: [] as string[] };
    const script: ScriptInput = {
      turns: [
        { agent: 'tester', text: '', tool_calls: [{ name: 'dump', arguments: {} }] },
        { agent: 'tester', text: 'Here again.', expect: { messages: ['are you there'] } },
        { agent: 'tester', text: 'Back after the restart.' },
      ],
    };
    const first = await forjaOn(database, script, runs);
    const { sessionId } = await testerSession(first.forja);
    await say(first.forja, sessionId, 'dump it');
    expect(await lastOf(first.forja, sessionId)).toMatchObject({
      type: 'turn.failed',
      payload: {
        agent: 'tester',
        reason: 'unstorable_output',
        message: expect.stringContaining('nested deeper than 200 levels'),
      },
    });
    await say(first.forja, sessionId, 'are you there');
    expect(await lastOf(first.forja, sessionId)).toMatchObject({
      payload: { text: 'Here again.' },
    });

    const second = await forjaOn(database, script, runs, { startAt: first.provider.position() });
    expect(await second.forja.conversation.resumeInterruptedTurns()).toEqual([]);
    await say(second.forja, sessionId, 'and now');
    expect(await lastOf(second.forja, sessionId)).toMatchObject({
      payload: { text: 'Back after the restart.' },
    });
    second.provider.assertAllTurnsConsumed();
  });
});
