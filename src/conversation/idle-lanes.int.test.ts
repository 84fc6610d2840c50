import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

/** Both devs end their kickoff turn without finishing; the nudged one then hears what is left of its module. */
const script: ScriptInput = {
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    {
      agent: 'arquiteto',
      tool_calls: [
        {
          name: 'assign_tasks_to_modules',
          arguments: {
            assignments: [
              { task_id: 'AT-001', module: 'catalogo' },
              { task_id: 'AT-002', module: 'pedidos' },
            ],
          },
        },
      ],
    },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    { agent: 'dev:catalogo', text: 'Vou olhar o catálogo depois.' },
    { agent: 'dev:pedidos', text: 'Vou olhar os pedidos depois.' },
    {
      // Answered slowly, so the nudge's turn is still running when the test nudges again (a fast answer would
      // leave the lane idle again, and a second nudge rightly accepted).
      agent: 'dev:catalogo',
      delay_ms: 3000,
      expect: {
        messages: [
          'continue o módulo catalogo',
          'AT-001 — Listar pães',
          'encerre cada uma com finish_task',
        ],
      },
      text: 'Certo, sigo com AT-001.',
    },
  ],
};

describe.each(testDatabaseEngines())('idle dev lanes on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('lists a dev lane idle with its module unfinished, and a nudge gives it a turn told what is left', {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(engine, script);
    close = line.close;
    const { forja } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    const idle = async () =>
      (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/idle-lanes`)).body.lanes;
    // Before the devs are activated, no lane is idle: their modules have no dev yet.
    expect(await idle()).toEqual([]);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);
    expect(await idle()).toEqual([
      {
        agent: 'dev:catalogo',
        module: 'catalogo',
        unfinished: [{ id: 'AT-001', title: 'Listar pães' }],
      },
      {
        agent: 'dev:pedidos',
        module: 'pedidos',
        unfinished: [{ id: 'AT-002', title: 'Criar pedido' }],
      },
    ]);

    const nudged = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/agents/dev:catalogo/nudge`,
    );
    expect(nudged.status).toBe(202);
    expect(nudged.body).toMatchObject({ agent: 'dev:catalogo', lane: { module: 'catalogo' } });
    // Stored as a message to the dev, the nudge owes its lane a turn: it is no longer idle.
    const refused = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/agents/dev:catalogo/nudge`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'lane_not_idle', field: 'slug' } });
    await forja.conversation.idle(sessionId);
    const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const message = events.find((event) => event.seq === nudged.body.seq)!;
    expect(message.payload).toMatchObject({ to: 'dev:catalogo' });
    expect(events.filter((event) => event.type === 'agent.response').at(-1)!.payload).toMatchObject(
      {
        agent: 'dev:catalogo',
        text: 'Certo, sigo com AT-001.',
      },
    );
    // Its turn ended without finishing AT-001: idle again, as pedidos still is.
    expect((await idle()).map((lane: { agent: string }) => lane.agent)).toEqual([
      'dev:catalogo',
      'dev:pedidos',
    ]);
  });

  it('refuses a nudge of a lane that is not an idle dev, an unknown session, and a bad slug, storing nothing', {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(engine, script);
    close = line.close;
    const { forja } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    const before = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const arquiteto = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/agents/arquiteto/nudge`,
    );
    expect(arquiteto.status).toBe(409);
    expect(arquiteto.body.error.message).toContain(
      'arquiteto is not idle: not a dev lane of this session',
    );
    const notActive = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/agents/dev:catalogo/nudge`,
    );
    expect(notActive.status).toBe(409);
    const unknown = await requestJson(
      forja,
      'POST',
      `/api/sessions/${crypto.randomUUID()}/agents/dev:catalogo/nudge`,
    );
    expect(unknown.status).toBe(404);
    const badSlug = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/agents/DEV%20X/nudge`,
    );
    expect(badSlug.status).toBe(400);
    expect(badSlug.body.error.field).toBe('slug');
    expect(await forja.eventLog.read(sessionId, { limit: 10_000 })).toHaveLength(before.length);
  });
});
