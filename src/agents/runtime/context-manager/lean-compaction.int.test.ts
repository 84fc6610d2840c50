import { recordingRequests } from '../../../gateway/providers/testing/index.ts';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createForja, type Forja } from '../../../composition.ts';
import { loadConfig } from '../../../config/config.ts';
import {
  createScriptedProvider,
  type ModelProvider,
  type ModelRequest,
  type ScriptInput,
} from '../../../gateway/providers/index.ts';
import { SESSION_EVENTS } from '../../../domain/conversation/index.ts';
import type { Database } from '../../../store/index.ts';
import { testDatabaseEngines } from '../../../store/testing/test-databases.ts';
import { requestJson } from '../../../testing/forja-harness.ts';
import { newSessionThroughApi } from '../../../testing/scripted-forja.ts';
import { defineTool } from '../agent-tool.ts';
import type { LoopAgent } from '../tool-loop.ts';

const WINDOW = 12_000;
const WRITES = 16;
/** A file of ~3,000 characters, different per index, like a module a dev writes. */
const fileContent = (index: number) =>
  Array.from(
    { length: 60 },
    (_, line) => `export const value${index}_${line} = ${line * index};`,
  ).join('\n');

/** A dev-like agent that writes files, one call after another, in one long turn. */
function writerAgent(written: string[], slug = 'writer'): LoopAgent {
  return {
    slug,
    maxIterations: WRITES + 2,
    maxOutputTokens: 1000,
    buildSystemPrompt: async () => 'You write the files of your task.',
    tools: [
      defineTool({
        name: 'write_file',
        description: 'Write a file',
        mode: 'direct',
        parameters: z.strictObject({ path: z.string(), content: z.string() }),
        run: async ({ path }) => (written.push(path), { ok: true, result: `wrote ${path}` }),
      }),
    ],
  };
}

describe.each(testDatabaseEngines())('a lean compaction on $name', (engine) => {
  const opened: Array<{ forja: Forja; database: Database }> = [];
  afterEach(async () => {
    for (const { forja, database } of opened.splice(0)) {
      await forja.close();
      await database.close();
    }
  });

  it("sends a dev's written files as references instead of summarising, and its requests stay bounded", async () => {
    const writes = Array.from({ length: WRITES }, (_, index) => ({
      agent: 'writer',
      tool_calls: [
        {
          name: 'write_file',
          arguments: { path: `src/file-${index}.js`, content: fileContent(index) },
        },
      ],
    }));
    // No ContextManager turn is scripted: a summarising call would fail the compaction (and this test).
    const script: ScriptInput = {
      turns: [
        ...writes,
        {
          agent: 'writer',
          text: 'All files written.',
          expect: { messages: ['read_file src/file-0.js mostra o arquivo como está agora'] },
        },
      ],
    };
    const env = { FORJA_MODEL_CONTEXT_TOKENS: String(WINDOW) };
    const loaded = loadConfig(env);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    const requests: ModelRequest[] = [];
    const written: string[] = [];
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      database,
      env,
      provider: recordingRequests(createScriptedProvider({ script }), requests),
      extraAgents: [writerAgent(written)],
    });
    opened.push({ forja, database });
    const { sessionId } = await newSessionThroughApi(forja);
    await forja.eventLog.append(sessionId, [
      {
        type: 'agent.activated',
        actor: 'system',
        payload: { v: 1, agent: 'writer', handoff_id: null },
      },
    ]);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'write the files',
    });
    await forja.conversation.idle(sessionId);

    const events = await forja.eventLog.read(sessionId);
    expect(events.at(-2)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'All files written.' },
    });
    expect(written).toHaveLength(WRITES);
    expect(events.some((event) => event.type === 'context.compaction_failed')).toBe(false);
    const compactions = events.filter((event) => event.type === 'context.compacted');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]!.payload).toMatchObject({ summary: '', through_seq: 0 });
    const last = JSON.stringify(requests.at(-1)!.messages);
    expect(last).not.toContain(fileContent(0));
    // The request after the lean compaction is far smaller than the one before it: the files went, the work stayed.
    const sizes = requests.map((request) => JSON.stringify(request.messages).length);
    const drop = sizes.findIndex((size, index) => index > 0 && size < sizes[index - 1]!);
    expect(drop).toBeGreaterThan(0);
    expect(sizes[drop]!).toBeLessThan(sizes[drop - 1]! * 0.7);
  });

  it("asks a dev's summary for the state of its work and gives it what the dev's system prompt holds", async () => {
    const slug = 'dev:regras';
    const writes = Array.from({ length: WRITES }, (_, index) => ({
      agent: slug,
      tool_calls: [
        {
          name: 'write_file',
          arguments: { path: `src/f-${index}.js`, content: fileContent(index) },
        },
      ],
    }));
    const script: ScriptInput = {
      turns: [
        ...writes,
        { agent: slug, text: 'All files written.' },
        {
          agent: 'context-manager',
          text: 'Escreveu src/f-0.js e seguintes; falta o check.',
          expect: {
            messages: [
              'You write the files of your task.',
              'src/f-0.js',
              'os arquivos que ele escreveu',
            ],
          },
        },
      ],
    };
    const env = { FORJA_MODEL_CONTEXT_TOKENS: String(WINDOW) };
    const loaded = loadConfig(env);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    const provider = createScriptedProvider({ script });
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      database,
      env,
      provider,
      extraAgents: [writerAgent([], slug)],
      contextManager: { lean: false },
    });
    opened.push({ forja, database });
    const { sessionId } = await newSessionThroughApi(forja);
    await forja.eventLog.append(sessionId, [
      SESSION_EVENTS.agentActivated.create('system', { v: 1, agent: slug, handoff_id: null }),
    ]);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'write' });
    await forja.conversation.idle(sessionId);
    const events = await forja.eventLog.read(sessionId);
    expect(events.some((event) => event.type === 'context.compaction_failed')).toBe(false);
    expect(events.filter((event) => event.type === 'context.compacted')).toHaveLength(1);
    provider.assertAllTurnsConsumed();
  });
});
