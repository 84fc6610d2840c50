import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { createScriptedProvider } from '../../gateway/providers/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';

const SCRIPT = {
  turns: [
    {
      agent: 'criativo',
      usage: { input_tokens: 300, output_tokens: 20 },
      tool_calls: [{ name: 'emit_artifact', arguments: { type: 'nothing' } }],
    },
    {
      agent: 'criativo',
      usage: { input_tokens: 400, output_tokens: 10 },
      text: 'Certo.',
      expect: { messages: ['emit_artifact'] },
    },
  ],
};

describe.each(testDatabaseEngines())("a turn's trace through the API on $name", (engine) => {
  let forja: Forja;
  let close: () => Promise<void>;
  const provider = createScriptedProvider({ script: SCRIPT });

  beforeAll(async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-turn-trace-'));
    const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: {},
      database,
      provider,
    });
    close = async () => {
      await forja.close();
      await database.close();
      await rm(dataDirectory, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  it('gives the model calls from token_usage and the refused tool call from the log; 404 naming turnId', async () => {
    const project = (await requestJson(forja, 'POST', '/api/projects', { name: 'Loja' })).body;
    const session = (
      await requestJson(forja, 'POST', `/api/projects/${project.id}/sessions`, { title: 'T' })
    ).body;
    await requestJson(forja, 'POST', `/api/sessions/${session.id}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${session.id}/messages`, { text: 'Olá' });
    await forja.conversation.idle(session.id);
    const events = await forja.eventLog.read(session.id, { limit: 1000 });
    const started = events.find((event) => event.type === 'turn.started')!;
    const turnId = (started.payload as { turn_id: string }).turn_id;

    const trace = await requestJson(
      forja,
      'GET',
      `/api/sessions/${session.id}/turns/${turnId}/trace`,
    );
    expect(trace.status).toBe(200);
    expect(trace.body).toMatchObject({
      turn_id: turnId,
      agent: 'criativo',
      status: 'answered',
      calls: [
        { input_tokens: 300, output_tokens: 20, outcome: 'completed' },
        { input_tokens: 400, output_tokens: 10, outcome: 'completed' },
      ],
      tools: [{ tool: 'emit_artifact', ok: false }],
      totals: { input_tokens: 700, output_tokens: 30, unpriced_calls: 2 },
    });
    expect(Date.parse(trace.body.ended_at)).toBeGreaterThanOrEqual(
      Date.parse(trace.body.started_at),
    );

    const missing = await requestJson(
      forja,
      'GET',
      `/api/sessions/${session.id}/turns/00000000-0000-4000-8000-000000000000/trace`,
    );
    expect(missing).toMatchObject({ status: 404, body: { error: { field: 'turnId' } } });
    provider.assertAllTurnsConsumed();
  });
});
