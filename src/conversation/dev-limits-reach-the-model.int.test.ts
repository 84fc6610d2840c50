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
import { createTerminalRunner, DEFAULT_TERMINAL_SETTINGS } from '../workspace/index.ts';
import {
  FORK_BOMB,
  MEMORY_HOG,
  TMP_FILL,
} from '../workspace/terminal/test-support/small-limits.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';

/** Small limits through the settings, as a person would set them. */
const ENV = {
  FORJA_TERMINAL_MODE: 'direct',
  FORJA_TERMINAL_TIMEOUT_SECONDS: '4',
  FORJA_SANDBOX_MAX_PROCESSES: '64',
  FORJA_SANDBOX_MEMORY_MB: '256',
  FORJA_SANDBOX_TOTAL_MEMORY_MB: '512',
  FORJA_SANDBOX_TMP_MB: '16',
};

/** What the dev reads back for each command: the limit it reached, or (no sandbox here) the refusal. */
const NOTES = [
  '[limit: the process limit (64 processes and threads) was reached]',
  '[limit: the memory limit (256 MiB per process) was reached]',
  '[limit: a disk limit was reached (/tmp holds 16 MiB)]',
];

const script = (sandboxed: boolean): ScriptInput => ({
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    {
      agent: 'dev:catalogo',
      tool_calls: [FORK_BOMB, MEMORY_HOG, TMP_FILL].map((command) => ({
        name: 'terminal',
        arguments: { command },
      })),
    },
    {
      agent: 'dev:catalogo',
      text: 'Entendi os limites.',
      expect: { messages: sandboxed ? NOTES : ['terminal refused'] },
    },
    { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
  ],
});

describe.each(testDatabaseEngines())('the sandbox limits reach the model on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('a fork bomb, a memory hog and a /tmp fill each come back to the dev naming its limit', {
    timeout: 240_000,
  }, async () => {
    const sandboxed = (await createTerminalRunner(DEFAULT_TERMINAL_SETTINGS).probe()).available;
    const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-dev-limits-'));
    const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    const provider = createScriptedProvider({ script: script(sandboxed) });
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: ENV,
      database,
      provider,
    });
    close = async () => (
      await forja.close(),
      await database.close(),
      await rm(dataDirectory, { recursive: true, force: true })
    );
    const { sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);
    const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(events.map((event) => event.type)).not.toContain('turn.failed');
    const answers = events
      .filter((event) => event.type === 'agent.response')
      .map((event) => (event.payload as { text: string }).text);
    expect(answers).toContain('Entendi os limites.');
    provider.assertAllTurnsConsumed();
  });
});
