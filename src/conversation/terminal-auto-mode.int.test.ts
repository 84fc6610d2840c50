import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';

const script: ScriptInput = {
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    {
      agent: 'dev:catalogo',
      // The dev is told which commands wait (its terminal's description and its kickoff).
      expect: { system: ['Comandos arriscados do terminal'] },
      tool_calls: [{ name: 'terminal', arguments: { command: 'mkdir -p build && ls' } }],
    },
    {
      agent: 'dev:catalogo',
      tool_calls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }],
    },
    { agent: 'dev:catalogo', text: 'Limpei o build.' },
    { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
  ],
};

describe.each(testDatabaseEngines())('the terminal in auto mode on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('runs a safe command in the sandbox unasked and makes a risky one wait; health says so', {
    timeout: 240_000,
  }, async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-auto-mode-'));
    const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    const provider = createScriptedProvider({ script });
    // No FORJA_TERMINAL_MODE: auto is the default.
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: {},
      database,
      provider,
    });
    close = async () => (
      await forja.close(),
      await database.close(),
      await rm(dataDirectory, { recursive: true, force: true })
    );
    expect((await requestJson(forja, 'GET', '/api/health')).body).toMatchObject({
      terminal: { mode: 'auto', sandbox_available: true, reason: null },
    });

    const { sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);
    const events = () => forja.eventLog.read(sessionId, { limit: 10_000 });
    const proposals = (await events()).filter((event) => event.type === 'action.proposed');
    expect(proposals.map((event) => (event.payload as { args: unknown }).args)).toEqual([
      { command: 'rm -rf build' },
    ]);
    const terminalRuns = async () =>
      (await events()).filter(
        (event) =>
          event.type === 'tool.completed' &&
          (event.payload as { tool: string }).tool === 'terminal',
      );
    const [safe] = await terminalRuns();
    expect(safe!.payload).toMatchObject({
      tool: 'terminal',
      ok: true,
      args: { command: 'mkdir -p build && ls' },
    });

    const actionId = (proposals[0]!.payload as { action_id: string }).action_id;
    expect((await requestJson(forja, 'POST', `/api/actions/${actionId}/approve`)).status).toBe(202);
    await forja.conversation.idle(sessionId);
    const completed = await terminalRuns();
    expect(completed.map((event) => (event.payload as { args: unknown }).args)).toEqual([
      { command: 'mkdir -p build && ls' },
      { command: 'rm -rf build' },
    ]);
    provider.assertAllTurnsConsumed();
  });
});
