import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { loadScriptedProvider, type ScriptedProvider } from '../gateway/providers/index.ts';
import { type TestDatabaseEngine, testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { gitAt, workspaceDirectory, worktreeDirectory } from '../workspace/index.ts';

/**
 * The walk-throughs of docs/getting-started.md, played exactly as written against the scripts shipped in examples/ (paced, as
 * `forja demo` and `FORJA_MODEL=scripted:…` play them). Between two steps the test waits for the session's
 * turns to finish, as the person does who watches the answer stream before typing the next message.
 */
const example = (name: string) => new URL(`../../examples/${name}`, import.meta.url).pathname;
// The line's demo plays on each engine (a person may run `npm start` with DATABASE_URL); Criativo's on PGlite.
const engines = testDatabaseEngines();
const [pglite] = engines;

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function startDemo(
  script: string | null,
  engine: TestDatabaseEngine = pglite!,
): Promise<{ forja: Forja; provider: ScriptedProvider | null; dataDirectory: string }> {
  const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-demo-script-'));
  cleanup.push(() => rm(dataDirectory, { recursive: true, force: true }));
  const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await engine.open();
  cleanup.push(() => database.close());
  const provider = script === null ? null : loadScriptedProvider(example(script));
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database,
    ...(provider ? { provider } : {}),
  });
  cleanup.push(() => forja.close());
  return { forja, provider, dataDirectory };
}

/** The raw body of a request, for the walk-through's `sed` that picks the id out of it. */
async function rawBody(
  forja: Forja,
  method: string,
  path: string,
  body?: unknown,
): Promise<string> {
  const init: RequestInit =
    body === undefined
      ? { method }
      : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return (await forja.app.request(path, init)).text();
}
// The walk-through's two `sed -E` expressions, on a one-line body.
const sedProjectId = (text: string) => text.replace(/.*"id":"([^"]+)".*/, '$1');
const sedSessionId = (text: string) => text.replace(/^\{"id":"([^"]+)".*/, '$1');

const turnFailures = async (forja: Forja, sessionId: string) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000 }))
    .filter((event) => event.type === 'turn.failed')
    .map((event) => event.payload as { agent: string; message: string });

describe('the getting-started walk-throughs, as written', { timeout: 240_000 }, () => {
  it('"Try it with curl", then "Talk to Criativo" with examples/criativo-demo.json', async () => {
    const { forja, provider } = await startDemo('criativo-demo.json');
    expect((await requestJson(forja, 'GET', '/api/health')).status).toBe(200);
    const PROJECT = sedProjectId(await rawBody(forja, 'POST', '/api/projects', { name: 'Bakery' }));
    expect((await requestJson(forja, 'GET', `/api/projects/${PROJECT}`)).body).toMatchObject({
      id: PROJECT,
      name: 'Bakery',
    });
    const FIRST = sedSessionId(
      await rawBody(forja, 'POST', `/api/projects/${PROJECT}/sessions`, { title: 'First idea' }),
    );
    expect(
      (
        await requestJson(forja, 'POST', `/api/sessions/${FIRST}/messages`, {
          text: 'Bread at dawn, by subscription',
        })
      ).status,
    ).toBe(201);
    const events = await requestJson(
      forja,
      'GET',
      `/api/sessions/${FIRST}/events?after=0&limit=100`,
    );
    expect(events.body.events.map((event: { type: string }) => event.type)).toEqual([
      'session.created',
      'chat.message',
    ]);

    // "Talk to Criativo": a new session of the same project, each message once the answer before it is done.
    const SESSION = sedSessionId(
      await rawBody(forja, 'POST', `/api/projects/${PROJECT}/sessions`, {
        title: 'Talk to Criativo',
      }),
    );
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${SESSION}/agents/criativo/start`)).status,
    ).toBe(201);
    for (const text of [
      'I want to sell bread at dawn by subscription',
      'For the neighbours, always before 6 am',
    ]) {
      expect(
        (await requestJson(forja, 'POST', `/api/sessions/${SESSION}/messages`, { text })).status,
      ).toBe(201);
      await forja.conversation.idle(SESSION);
    }
    const ready = await requestJson(forja, 'POST', `/api/sessions/${SESSION}/readiness?wait=true`);
    expect(ready).toMatchObject({
      status: 201,
      body: { handoff: { to_agent: 'po', status: 'offered' } },
    });
    const handoffs = (await requestJson(forja, 'GET', `/api/sessions/${SESSION}/handoffs`)).body
      .handoffs;
    expect(handoffs).toEqual([
      expect.objectContaining({
        id: ready.body.handoff.id,
        from_agent: 'criativo',
        to_agent: 'po',
      }),
    ]);
    expect(
      (await requestJson(forja, 'POST', `/api/handoffs/${handoffs[0].id}/accept`)).status,
    ).toBe(200);
    await forja.conversation.idle(SESSION);

    const state = (await requestJson(forja, 'GET', `/api/sessions/${SESSION}/state`)).body;
    expect(state.business_rules).toEqual([
      expect.objectContaining({ title: 'Entrega antes das 6h', origin: [7] }),
    ]);
    expect(state.product_brief.data.title).toBe('Padaria do amanhecer');
    // What the guide says next: the demo scripts no PO turn, so the PO could not answer.
    expect(await turnFailures(forja, SESSION)).toEqual([
      expect.objectContaining({
        agent: 'po',
        message: expect.stringContaining('no turn left for agent "po"'),
      }),
    ]);
    provider!.assertAllTurnsConsumed();
  });

  it.each(engines)(
    'examples/production-line-demo.json on $name: one message, a second one, ready, then accept the PO, the Arquiteto and the devs',
    async (engine) => {
      const { forja, provider, dataDirectory } = await startDemo(
        'production-line-demo.json',
        engine,
      );
      const PROJECT = sedProjectId(
        await rawBody(forja, 'POST', '/api/projects', { name: 'Padaria' }),
      );
      const SESSION = sedSessionId(
        await rawBody(forja, 'POST', `/api/projects/${PROJECT}/sessions`, { title: 'A linha' }),
      );
      const pending = async (toAgent: string) =>
        (await requestJson(forja, 'GET', `/api/sessions/${SESSION}/handoffs`)).body.handoffs.find(
          (handoff: { to_agent: string; status: string }) =>
            handoff.to_agent === toAgent && handoff.status === 'offered',
        );

      await requestJson(forja, 'POST', `/api/sessions/${SESSION}/agents/criativo/start`);
      for (const text of [
        'Quero vender pão de madrugada, entregue antes das 6h.',
        'Para os vizinhos do bairro.',
      ]) {
        await requestJson(forja, 'POST', `/api/sessions/${SESSION}/messages`, { text });
        await forja.conversation.idle(SESSION);
      }
      expect(
        (await requestJson(forja, 'GET', `/api/sessions/${SESSION}/state`)).body.business_rules,
      ).toEqual([expect.objectContaining({ title: 'Entrega cedo' })]);
      expect(
        (await requestJson(forja, 'POST', `/api/sessions/${SESSION}/readiness?wait=true`)).status,
      ).toBe(201);
      expect(
        (await requestJson(forja, 'POST', `/api/handoffs/${(await pending('po')).id}/accept`))
          .status,
      ).toBe(200);
      await forja.conversation.idle(SESSION);
      expect(
        (await requestJson(forja, 'GET', `/api/projects/${PROJECT}/backlog`)).body.tasks.map(
          (task: { id: string }) => task.id,
        ),
      ).toEqual(['AT-001', 'AT-002', 'AT-003']);
      expect(
        (
          await requestJson(
            forja,
            'POST',
            `/api/handoffs/${(await pending('arquiteto')).id}/accept`,
          )
        ).status,
      ).toBe(200);
      await forja.conversation.idle(SESSION);
      const contracts = (await forja.eventLog.read(SESSION, { limit: 10_000 })).filter(
        (event) =>
          event.type === 'tool.completed' &&
          (event.payload as { tool: string }).tool === 'declare_module_contracts',
      );
      expect(contracts.map((event) => (event.payload as { ok: boolean }).ok)).toEqual([
        false,
        true,
      ]);
      expect(
        (await requestJson(forja, 'POST', `/api/sessions/${SESSION}/dev-handoffs/accept`)).body
          .accepted,
      ).toHaveLength(2);
      await forja.conversation.idle(SESSION);

      const devs = (await requestJson(forja, 'GET', `/api/sessions/${SESSION}/devs`)).body.devs;
      expect(devs).toEqual([
        expect.objectContaining({
          agent: 'dev:catalogo',
          blocks: [
            expect.objectContaining({ kind: 'interface', modulo: 'pedidos', status: 'unblocked' }),
            expect.objectContaining({ kind: 'check', modulo: 'catalogo', status: 'unblocked' }),
          ],
          finished: [expect.objectContaining({ task_id: 'AT-001', branch: 'dev-catalogo' })],
        }),
        expect.objectContaining({
          agent: 'dev:pedidos',
          blocks: [],
          // AT-003's work was in AT-002's commit: finished against that commit, with no files of its own.
          finished: [
            expect.objectContaining({
              task_id: 'AT-002',
              branch: 'dev-pedidos',
              files: ['src/pedidos.ts'],
            }),
            expect.objectContaining({ task_id: 'AT-003', branch: 'dev-pedidos', files: [] }),
          ],
        }),
      ]);
      const [at002, at003] = devs[1].finished as Array<{ commit: string }>;
      expect(at003!.commit).toBe(at002!.commit);
      const git = gitAt(workspaceDirectory(dataDirectory, PROJECT));
      expect(await git.raw(['show', 'dev-pedidos:src/pedidos.ts'])).toContain('listarPaes');
      const log = await forja.eventLog.read(SESSION, { limit: 10_000 });
      expect(
        log.find(
          (event) =>
            event.type === 'dev.task_finished' &&
            (event.payload as { task_id: string }).task_id === 'AT-003',
        )?.payload,
      ).toMatchObject({ commit: at002!.commit, files: [], already_committed: true });
      // catalogo merged into dev, then dev merged into pedidos' worktree before pedidos finished anything.
      const catalogoMerged = log.find(
        (event) =>
          event.type === 'module.merged' &&
          (event.payload as { module: string }).module === 'catalogo',
      )!;
      const dependency = log.find((event) => event.type === 'module.dependency_merged')!;
      expect(dependency.payload).toMatchObject({
        module: 'pedidos',
        dependencies: ['catalogo'],
        commit: expect.any(String),
      });
      expect(dependency.seq).toBeGreaterThan(catalogoMerged.seq);
      expect(
        await readFile(
          join(worktreeDirectory(dataDirectory, PROJECT, 'pedidos'), 'src/catalogo.ts'),
          'utf8',
        ),
      ).toContain('export function listarPaes');
      // pedidos' code was committed on top of that merge, so its check ran with catalogo's code in place.
      expect((await git.raw(['rev-parse', `${at002!.commit}^`])).trim()).toBe(
        (dependency.payload as { commit: string }).commit,
      );
      // The log: dev:catalogo's block of kind check, the Arquiteto's map version 2 fixing that check, the unblock.
      const checkBlock = log.find(
        (event) =>
          event.type === 'dev.blocked' && (event.payload as { kind: string }).kind === 'check',
      )!;
      expect(checkBlock.payload).toMatchObject({ agent: 'dev:catalogo', modulo: 'catalogo' });
      const mapV2 = log.find(
        (event) =>
          event.type === 'artifact.module_map' &&
          (event.payload as { data: { version: number } }).data.version === 2,
      )!;
      expect(mapV2.actor).toBe('arquiteto');
      expect(mapV2.seq).toBeGreaterThan(checkBlock.seq);
      expect(
        log.find(
          (event) =>
            event.type === 'dev.unblocked' &&
            (event.payload as { block_seq: number }).block_seq === checkBlock.seq,
        )?.payload,
      ).toMatchObject({ resolution: { kind: 'module_map', version: 2, seq: mapV2.seq } });
      expect(
        (await requestJson(forja, 'GET', `/api/sessions/${SESSION}/line`)).body.modules,
      ).toEqual([
        expect.objectContaining({
          module: 'catalogo',
          last_check: expect.objectContaining({ source: 'declared', exit_code: 0 }),
        }),
        expect.objectContaining({ module: 'pedidos', state: 'merged' }),
      ]);
      expect(await turnFailures(forja, SESSION)).toEqual([]);
      provider!.assertAllTurnsConsumed();
    },
  );

  it('ships the production-line demo as exactly the script the production-line test plays, paced', async () => {
    const { PRODUCTION_LINE } = await import('./testing/production-line-script.ts');
    const shipped = JSON.parse(await readFile(example('production-line-demo.json'), 'utf8')) as {
      turns: Array<Record<string, unknown>>;
    };
    expect(shipped.turns.every((turn) => typeof turn['delay_ms'] === 'number')).toBe(true);
    const unpaced = shipped.turns.map(({ delay_ms: _delay, pace_ms: _pace, ...turn }) => turn);
    expect({ turns: unpaced }).toEqual({ turns: PRODUCTION_LINE });
  });
});
