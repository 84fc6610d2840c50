import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import {
  gitAt,
  INTEGRATION_BRANCH,
  workspaceDirectory,
  worktreeDirectory,
} from '../workspace/index.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';

/** An attack of ADR 0040, as the model sends it: the worktree's `.git` pointed at a repository whose config runs a program. */
const attack = (marker: string) =>
  [
    'git init -q evil',
    `git -C evil config filter.x.clean "touch ${marker}; cat"`,
    `git -C evil config core.fsmonitor "touch ${marker}"`,
    'printf "* filter=x\\n" > .gitattributes',
    'printf "gitdir: %s/evil/.git\\n" "$PWD" > .git',
    'echo attacked',
  ].join('; ');

const script = (marker: string): ScriptInput => ({
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    {
      agent: 'dev:catalogo',
      tool_calls: [{ name: 'terminal', arguments: { command: attack(marker) } }],
    },
    {
      agent: 'dev:catalogo',
      tool_calls: [
        { name: 'finish_task', arguments: { task_id: 'AT-001', resumo: 'Lista os pães' } },
      ],
    },
    { agent: 'dev:catalogo', text: 'Feito.' },
    { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
  ],
});

describe.each(testDatabaseEngines())(
  'the .git escape through the scripted model on $name',
  (engine) => {
    let close: (() => Promise<unknown>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it.each(['direct', 'proposed'] as const)(
      'in %s mode: no program runs on the host, the refusal is recorded, the branch is untouched',
      { timeout: 240_000 },
      async (mode) => {
        const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-dev-escape-'));
        const outside = await mkdtemp(join(tmpdir(), 'forja-outside-'));
        const marker = join(outside, 'host-code-ran');
        const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
        if (!loaded.ok) throw new Error(loaded.error.message);
        const database = await engine.open();
        const provider = createScriptedProvider({ script: script(marker) });
        const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
          env: { FORJA_TERMINAL_MODE: mode },
          database,
          provider,
        });
        close = async () => (
          await forja.close(),
          await database.close(),
          await rm(dataDirectory, { recursive: true, force: true }),
          await rm(outside, { recursive: true, force: true })
        );

        const { projectId, sessionId } = await playUpToTheDevs(forja);
        await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
        await forja.conversation.idle(sessionId);
        const events = async () => forja.eventLog.read(sessionId, { limit: 10_000 });
        if (mode === 'proposed') {
          // dev:pedidos works in its own lane meanwhile (decision 0070): find the proposal, not the last event.
          const proposed = (await events()).find((event) => event.type === 'action.proposed')!;
          expect(proposed).toMatchObject({
            type: 'action.proposed',
            payload: { agent: 'dev:catalogo', tool: 'terminal' },
          });
          expect(
            await requestJson(
              forja,
              'POST',
              `/api/actions/${(proposed.payload as { action_id: string }).action_id}/approve`,
            ),
          ).toMatchObject({ status: 202 });
          await forja.conversation.idle(sessionId);
        }

        const worktree = worktreeDirectory(dataDirectory, projectId, 'catalogo');
        const git = gitAt(workspaceDirectory(dataDirectory, projectId));
        const calls = (await events())
          .filter(
            (event) =>
              event.type === 'tool.completed' &&
              (event.payload as { agent: string }).agent === 'dev:catalogo',
          )
          .map((event) => event.payload as { tool: string; ok: boolean; result: string });
        expect(existsSync(marker)).toBe(false);
        expect(calls.map((call) => [call.tool, call.ok])).toEqual([
          ['terminal', true],
          ['finish_task', false],
        ]);
        expect(calls[0]!.result).toMatch(/\.git: Read-only file system/);
        expect(calls[1]!.result).toContain(
          'finish_task refused: evil is a nested git repository: Forja commits files only',
        );
        expect(await readFile(join(worktree, '.git'), 'utf8')).toMatch(
          /^gitdir: .*\/workspace\/\.git\/worktrees\/catalogo\n$/,
        );
        expect((await git.raw(['rev-parse', 'dev-catalogo'])).trim()).toBe(
          (await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim(),
        );
        expect((await events()).map((event) => event.type)).not.toContain('dev.task_finished');
        provider.assertAllTurnsConsumed();
      },
    );
  },
);
