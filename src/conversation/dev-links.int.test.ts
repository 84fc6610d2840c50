import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { gitAt, INTEGRATION_BRANCH, workspaceDirectory } from '../workspace/index.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';

const finish = {
  name: 'finish_task',
  arguments: { task_id: 'AT-001', resumo: 'Lista os pães' },
};

/** A dev that commits a link to a host file, then a change of docs/: each refusal reaches its next call. */
const script = (hostFile: string): ScriptInput => ({
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    {
      agent: 'dev:catalogo',
      tool_calls: [{ name: 'terminal', arguments: { command: `ln -s ${hostFile} README.md` } }],
    },
    { agent: 'dev:catalogo', tool_calls: [finish] },
    {
      agent: 'dev:catalogo',
      expect: {
        messages: [
          'finish_task refused',
          `README.md is a symbolic link and its target ${JSON.stringify(hostFile)} is an absolute path`,
        ],
      },
      tool_calls: [
        { name: 'terminal', arguments: { command: 'rm README.md' } },
        { name: 'write_file', arguments: { path: 'docs/project-image.md', content: 'mine' } },
      ],
    },
    { agent: 'dev:catalogo', tool_calls: [finish] },
    {
      agent: 'dev:catalogo',
      expect: { messages: ['docs/project-image.md is under docs/, which Forja writes'] },
      text: 'Entendi.',
    },
    { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
  ],
});

describe.each(testDatabaseEngines())('links and docs/ in a dev commit on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('refuses both at finish_task, the reason reaching the model, the branch and the host file untouched', {
    timeout: 240_000,
  }, async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-dev-links-'));
    const outside = await mkdtemp(join(tmpdir(), 'forja-outside-'));
    const hostFile = join(outside, 'root-only.conf');
    await writeFile(hostFile, 'host\n');
    const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const database = await engine.open();
    const provider = createScriptedProvider({ script: script(hostFile) });
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: { FORJA_TERMINAL_MODE: 'direct' },
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

    const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const finishes = events
      .filter((event) => event.type === 'tool.completed')
      .map((event) => event.payload as { agent: string; tool: string; ok: boolean })
      .filter((call) => call.agent === 'dev:catalogo' && call.tool === 'finish_task');
    expect(finishes.map((call) => call.ok)).toEqual([false, false]);
    expect(events.map((event) => event.type)).not.toContain('dev.task_finished');
    expect(events.map((event) => event.type)).not.toContain('turn.failed');
    const git = gitAt(workspaceDirectory(dataDirectory, projectId));
    expect((await git.raw(['rev-parse', 'dev-catalogo'])).trim()).toBe(
      (await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim(),
    );
    expect(await readFile(hostFile, 'utf8')).toBe('host\n');
    provider.assertAllTurnsConsumed();
  });
});
