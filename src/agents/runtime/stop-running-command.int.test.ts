import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { createScriptedProvider } from '../../gateway/providers/index.ts';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';
import { newSessionThroughApi } from '../../testing/scripted-forja.ts';
import {
  createTerminalRunner,
  DEFAULT_TERMINAL_SETTINGS,
  type TerminalOutcome,
} from '../../workspace/index.ts';
import { defineTool } from './agent-tool.ts';
import type { LoopAgent } from './tool-loop.ts';

/** An agent whose one tool runs a command through the terminal runner with the turn's signal, as `terminal` does. */
function shellAgent(directory: string, runs: { started: () => void; ended: TerminalOutcome[] }) {
  const runner = createTerminalRunner({ ...DEFAULT_TERMINAL_SETTINGS, mode: 'direct' });
  const agent: LoopAgent = {
    slug: 'tester',
    maxIterations: 5,
    maxOutputTokens: 200,
    buildSystemPrompt: async () => 'You run commands.',
    tools: [
      defineTool({
        name: 'shell',
        description: 'Run a command',
        mode: 'direct',
        parameters: z.strictObject({ command: z.string() }),
        run: async ({ command }, context) => {
          runs.started();
          const outcome = await runner.run(
            directory,
            command,
            context.signal === undefined ? {} : { signal: context.signal },
          );
          runs.ended.push(outcome);
          return { ok: true, result: JSON.stringify(outcome) };
        },
      }),
    ],
  };
  return agent;
}

describe.each(testDatabaseEngines())('Stop during a command on $name', (engine) => {
  let forja: Forja | undefined;
  let database: Database | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await forja?.close();
    await database?.close();
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  it('kills a running `sleep 600` and every process it started, and the turn ends as stopped', async () => {
    directory = await mkdtemp(join(tmpdir(), 'forja-stop-'));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runs = { started, ended: [] as TerminalOutcome[] };
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    const provider = createScriptedProvider({
      script: {
        turns: [
          {
            agent: 'tester',
            text: '',
            tool_calls: [{ name: 'shell', arguments: { command: '(sleep 600 &); sleep 600' } }],
          },
        ],
      },
    });
    forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: {},
      database: (database = await engine.open()),
      provider,
      extraAgents: [shellAgent(directory, runs)],
    });
    const { sessionId } = await newSessionThroughApi(forja);
    await forja.eventLog.append(sessionId, [
      {
        type: 'agent.activated',
        actor: 'system',
        payload: { v: 1, agent: 'tester', handoff_id: null },
      },
    ]);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'go' });
    await running;
    const turn = (await forja.eventLog.read(sessionId)).findLast(
      (event) => event.type === 'turn.started',
    )!.payload as { turn_id: string };
    const stopped = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/turns/${turn.turn_id}/stop`,
    );
    expect(stopped.status).toBe(200);
    await forja.conversation.idle(sessionId);
    const types = (await forja.eventLog.read(sessionId)).map((event) => event.type);
    expect(types.slice(-3)).toEqual(['tool.completed', 'turn.stopped', 'turn.ended']);
    expect(runs.ended).toHaveLength(1);
    if (!(await createTerminalRunner(DEFAULT_TERMINAL_SETTINGS).probe()).available) return;
    expect(runs.ended[0]).toMatchObject({
      ok: true,
      stopped: true,
      exitCode: null,
      timedOut: false,
    });
    provider.assertAllTurnsConsumed();
  });
});
