import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { SessionLineSchema } from '../http/view-schemas.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import {
  gitAt,
  INTEGRATION_BRANCH,
  MAIN_BRANCH,
  workspaceDirectory,
  worktreeDirectory,
} from '../workspace/index.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

const TASKS = [
  { task_id: 'AT-001', module: 'catalogo' },
  { task_id: 'AT-002', module: 'pedidos' },
];

/** The Arquiteto's turns: a map of catalogo and pedidos (`modules`), the tasks assigned, the handoff. */
const arquiteto = (modules: Array<Record<string, unknown>>) => [
  {
    agent: 'arquiteto',
    tool_calls: [{ name: 'declare_module_map', arguments: { version: 1, modules } }],
  },
  {
    agent: 'arquiteto',
    tool_calls: [{ name: 'assign_tasks_to_modules', arguments: { assignments: TASKS } }],
  },
  { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
  { agent: 'arquiteto', text: 'Pronto: aceite os handoffs.' },
];
const module = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  stack: 'TypeScript',
  responsibility: `A parte ${name}`,
  dependsOn: [],
  ...extra,
});
/** A dev turn that writes `content` to src/<module>.ts, finishes its task and says so. */
const writesAndFinishes = (name: string, task: string, content: string, expect?: unknown) => [
  {
    agent: `dev:${name}`,
    ...(expect === undefined ? {} : { expect }),
    tool_calls: [{ name: 'write_file', arguments: { path: `src/${name}.ts`, content } }],
  },
  {
    agent: `dev:${name}`,
    tool_calls: [{ name: 'finish_task', arguments: { task_id: task, resumo: `${name} pronto` } }],
  },
  { agent: `dev:${name}`, text: 'Feito.' },
];

const eventsOf = async (forja: Forja, sessionId: string) =>
  forja.eventLog.read(sessionId, { limit: 10_000 });

describe.each(testDatabaseEngines())('the end of the line on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('merges two modules finishing side by side, both onto dev with docs/, then the person merges dev into main once', {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...arquiteto([module('catalogo'), module('pedidos')]),
        ...writesAndFinishes('catalogo', 'AT-001', "export const catalogo = ['pão'];\n"),
        ...writesAndFinishes('pedidos', 'AT-002', 'export const pedidos = [];\n'),
      ],
    });
    close = line.close;
    const { forja, dataDirectory } = line;
    const { projectId, sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);

    // Each worktree started from a dev that holds the docs/ the Arquiteto wrote on main.
    for (const name of ['catalogo', 'pedidos'])
      expect(
        await readFile(
          join(worktreeDirectory(dataDirectory, projectId, name), 'docs/module-map.md'),
          'utf8',
        ),
      ).toContain('# Module map — version 1');

    const log = await eventsOf(forja, sessionId);
    const merged = log.filter((event) => event.type === 'module.merged');
    expect(merged.map((event) => (event.payload as { module: string }).module).sort()).toEqual([
      'catalogo',
      'pedidos',
    ]);
    const git = gitAt(workspaceDirectory(dataDirectory, projectId));
    const dev = (await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim();
    expect(log.filter((event) => event.type === 'line.completed')).toMatchObject([
      { payload: { commit: dev } },
    ]);
    // Two merge commits in a row on dev, the second onto the first: neither merge lost the other.
    expect((await git.raw(['rev-list', '--parents', '-1', dev])).trim().split(' ')).toEqual([
      dev,
      (merged[0]!.payload as { commit: string }).commit,
      expect.any(String),
    ]);
    for (const path of ['src/catalogo.ts', 'src/pedidos.ts', 'docs/module-map.md'])
      expect(await git.raw(['ls-tree', '--name-only', dev, path])).toBe(`${path}\n`);
    // Neither module has a tsconfig.json yet: their default check ran nothing, and the line says so.
    expect((merged.at(-1)!.payload as { checks: unknown[] }).checks).toEqual([
      expect.objectContaining({ module: expect.any(String), exit_code: 0, skipped: true }),
      expect.objectContaining({ module: expect.any(String), exit_code: 0, skipped: true }),
    ]);
    const ready = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/line`)).body;
    expect(ready.completed.checks_skipped.sort()).toEqual(['catalogo', 'pedidos']);

    // The person's "Merge into main": a merge commit on main, recorded, shown by the line view.
    const mainBefore = (await git.raw(['rev-parse', MAIN_BRANCH])).trim();
    const answer = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/line/merge-into-main`,
    );
    expect(answer).toMatchObject({ status: 201, body: { dev_commit: dev } });
    const commit = answer.body.commit as string;
    expect((await git.raw(['rev-parse', MAIN_BRANCH])).trim()).toBe(commit);
    expect((await git.raw(['rev-list', '--parents', '-1', commit])).trim().split(' ')).toEqual([
      commit,
      mainBefore,
      dev,
    ]);
    expect(
      await readFile(join(workspaceDirectory(dataDirectory, projectId), 'src/pedidos.ts'), 'utf8'),
    ).toBe('export const pedidos = [];\n');
    expect((await eventsOf(forja, sessionId)).at(-1)).toMatchObject({
      type: 'line.merged_into_main',
      actor: 'user',
      payload: { v: 1, commit, dev_commit: dev, actor: 'user' },
    });
    expect((await requestJson(forja, 'GET', `/api/sessions/${sessionId}/line`)).body).toMatchObject(
      {
        completed: { commit: dev },
        merged_into_main: { commit, dev_commit: dev },
        workspace_path: workspaceDirectory(dataDirectory, projectId),
        clone_path: `/git/${projectId}.git`,
      },
    );

    // Twice is refused, naming the rule; main does not move.
    const again = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/line/merge-into-main`,
    );
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_merged_into_main');
    expect(again.body.error.message).toContain('the line is merged into main once');
    expect((await git.raw(['rev-parse', MAIN_BRANCH])).trim()).toBe(commit);
    expect(
      (await eventsOf(forja, sessionId)).filter((event) => event.type === 'line.merged_into_main'),
    ).toHaveLength(1);
    // Every scripted call matched its `expect`: a mismatch would have failed its turn.
    expect((await eventsOf(forja, sessionId)).map((event) => event.type)).not.toContain(
      'turn.failed',
    );
    line.provider.assertAllTurnsConsumed();
  });

  it('re-opens the dev whose merge fails the integration check on dev, with the output; completes only once fixed', {
    timeout: 240_000,
  }, async () => {
    // catalogo's check passes in its own worktree; on dev it also reads pedidos' code, and finds the TODO.
    const map = [
      module('catalogo', { check: '! grep -rn TODO src' }),
      module('pedidos', { dependsOn: ['catalogo'] }),
    ];
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...arquiteto(map),
        ...writesAndFinishes('catalogo', 'AT-001', "export const catalogo = ['pão'];\n"),
        ...writesAndFinishes('pedidos', 'AT-002', '// TODO preço\nexport const pedidos = [];\n'),
        {
          agent: 'dev:pedidos',
          expect: {
            system: [
              'Reaberto: a verificação de integração em dev falhou depois do merge de dev-pedidos',
              '$ ! grep -rn TODO src (the check of catalogo)',
              'src/pedidos.ts:1:// TODO preço',
              '[exit code 1]',
            ],
          },
          text: 'A verificação de catalogo achou o TODO; espero o seu ok para corrigir.',
        },
        ...writesAndFinishes('pedidos', 'AT-002', 'export const pedidos = [];\n', {
          messages: ['user: [#', 'Pode corrigir.'],
        }),
      ],
    });
    close = line.close;
    const { forja, dataDirectory } = line;
    const { projectId, sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);

    const failed = await eventsOf(forja, sessionId);
    expect(failed.filter((event) => event.type === 'module.merge_failed')).toMatchObject([
      {
        payload: {
          module: 'pedidos',
          kind: 'check',
          output: expect.stringContaining('src/pedidos.ts:1:// TODO preço'),
        },
      },
    ]);
    expect(failed.map((event) => event.type)).not.toContain('line.completed');
    expect(failed.map((event) => event.type)).not.toContain('turn.failed');
    // The re-opened dev answered after the failure (other lanes' events, such as the merged module's handoff
    // completing, may land after its answer).
    const failedAt = failed.find((event) => event.type === 'module.merge_failed')!.seq;
    const reopenedAnswer = failed.filter(
      (event) =>
        event.type === 'agent.response' &&
        event.seq > failedAt &&
        (event.payload as { agent?: string }).agent === 'dev:pedidos',
    );
    expect(reopenedAnswer.at(-1)).toMatchObject({
      type: 'agent.response',
      payload: { agent: 'dev:pedidos', text: expect.stringContaining('achou o TODO') },
    });
    const git = gitAt(workspaceDirectory(dataDirectory, projectId));
    const devAfterFailure = (await git.raw(['rev-parse', INTEGRATION_BRANCH])).trim();
    expect(await git.raw(['ls-tree', '--name-only', devAfterFailure, 'src/'])).toBe(
      'src/catalogo.ts\n',
    );
    const failedLine = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/line`)).body;
    SessionLineSchema.parse(failedLine);
    expect(failedLine).toMatchObject({
      completed: null,
      modules: [{ state: 'merged' }, { module: 'pedidos', state: 'failed' }],
      workspace_path: null,
      clone_path: null,
    });
    // Before line.completed, main is refused, naming the rule.
    const early = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/line/merge-into-main`,
    );
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({
      code: 'line_not_completed',
      message: expect.stringContaining('main takes dev only after line.completed'),
    });

    // The person lets the dev fix it: its finish merges, the integration check passes, the line completes.
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Pode corrigir.',
      to: 'dev:pedidos',
    });
    await forja.conversation.idle(sessionId);
    const fixed = await eventsOf(forja, sessionId);
    const pedidosMerged = fixed.find(
      (event) =>
        event.type === 'module.merged' &&
        (event.payload as { module: string }).module === 'pedidos',
    );
    expect(pedidosMerged).toMatchObject({
      payload: {
        checks: [
          { module: 'catalogo', exit_code: 0 },
          { module: 'pedidos', exit_code: 0 },
        ],
      },
    });
    const completed = fixed.filter((event) => event.type === 'line.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.seq).toBeGreaterThan(pedidosMerged!.seq);
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/line/merge-into-main`)).status,
    ).toBe(201);
    // Every scripted call matched its `expect`: a mismatch would have failed its turn.
    expect((await eventsOf(forja, sessionId)).map((event) => event.type)).not.toContain(
      'turn.failed',
    );
    line.provider.assertAllTurnsConsumed();
  });
});
