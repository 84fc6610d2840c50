import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import type { Database } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';

const BINARY = 'head -c 64 /usr/bin/true';

/**
 * The dev's terminal as a hostile model and a binary file drive it: a command with a NUL (refused before anyone
 * is asked), then a command whose output is binary (NUL bytes Forja stores as U+FFFD), then, after a restart, a
 * question the lane still answers.
 */
const script: ScriptInput = {
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    {
      agent: 'dev:catalogo',
      tool_calls: [{ name: 'terminal', arguments: { command: "printf 'a\u0000b'" } }],
    },
    {
      agent: 'dev:catalogo',
      tool_calls: [{ name: 'terminal', arguments: { command: BINARY } }],
      expect: {
        messages: [
          'The arguments of terminal hold a NUL character or a lone surrogate at .command',
        ],
      },
    },
    {
      agent: 'dev:catalogo',
      text: 'Saída binária, sem problema.',
      expect: { messages: [`$ ${BINARY}`, '\u007fELF\u0002\u0001\u0001\uFFFD', '[exit code 0]'] },
    },
    { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
    {
      agent: 'dev:catalogo',
      text: 'Sim, ainda aqui.',
      expect: { messages: ['Você ainda responde?'] },
    },
  ],
};

describe.each(testDatabaseEngines())(
  'binary output and NULs in the terminal on $name',
  (engine) => {
    const cleanups: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    /** A Forja on `database` and `dataDirectory`; a second one on the same is a restart. */
    async function forjaOn(
      database: Database,
      dataDirectory: string,
      startAt?: Record<string, number>,
    ): Promise<{ forja: Forja; position: () => Record<string, number> }> {
      const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const provider = createScriptedProvider({ script, ...(startAt ? { startAt } : {}) });
      // As the red team ran it: every command waits for the person, who approves the binary one.
      const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
        env: { FORJA_TERMINAL_MODE: 'proposed' },
        database,
        provider,
      });
      cleanups.push(() => forja.close());
      return { forja, position: () => provider.position() };
    }

    it('ends the turn cleanly, and the lane answers the next message, also after a restart that runs nothing again', {
      timeout: 240_000,
    }, async () => {
      const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-binary-'));
      cleanups.push(() => rm(dataDirectory, { recursive: true, force: true }));
      const database = await engine.open();
      cleanups.push(() => database.close());
      const first = await forjaOn(database, dataDirectory);
      const { sessionId } = await playUpToTheDevs(first.forja);
      await requestJson(first.forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
      await first.forja.conversation.idle(sessionId);
      const log = async (forja: Forja) =>
        (await forja.eventLog.read(sessionId, { limit: 10_000 })).filter(
          (event) => (event.payload as { agent?: string }).agent === 'dev:catalogo',
        );
      // The NUL command was refused at once (nothing to approve); the binary one waits for the person.
      const proposals = (await log(first.forja)).filter(
        (event) => event.type === 'action.proposed',
      );
      expect(proposals).toMatchObject([
        { payload: { tool: 'terminal', args: { command: BINARY } } },
      ]);
      const actionId = (proposals[0]!.payload as { action_id: string }).action_id;
      expect(
        await requestJson(first.forja, 'POST', `/api/actions/${actionId}/approve`),
      ).toMatchObject({ status: 202 });
      await first.forja.conversation.idle(sessionId);

      const results = (await log(first.forja))
        .filter((event) => event.type === 'tool.completed')
        .map((event) => event.payload as { ok: boolean; result: string });
      expect(results.map((result) => result.ok)).toEqual([false, true]);
      // The ELF header's NUL bytes, as stored.
      expect(results[1]!.result).toContain('\u007fELF\u0002\u0001\u0001\uFFFD');
      expect(results[1]!.result).not.toContain('\u0000');
      expect((await log(first.forja)).at(-2)).toMatchObject({
        type: 'agent.response',
        payload: { text: 'Saída binária, sem problema.' },
      });

      // A restart: nothing is owed, so the command does not run again; the lane answers the next message.
      const second = await forjaOn(database, dataDirectory, first.position());
      expect(await second.forja.conversation.resumeInterruptedTurns()).toEqual([]);
      expect(
        await requestJson(second.forja, 'POST', `/api/sessions/${sessionId}/messages`, {
          text: 'Você ainda responde?',
          to: 'dev:catalogo',
        }),
      ).toMatchObject({ status: 201 });
      await second.forja.conversation.idle(sessionId);
      const after = await log(second.forja);
      expect(after.at(-2)).toMatchObject({
        type: 'agent.response',
        payload: { text: 'Sim, ainda aqui.' },
      });
      expect(after.filter((event) => event.type === 'tool.completed')).toHaveLength(2);
    });
  },
);
