import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptInput } from '../gateway/providers/index.ts';
import { SessionEventSchema } from '../http/session-event-schema.ts';
import { SessionStateSchema } from '../http/view-schemas.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

/** dev:catalogo asks to run a risky command; dev:pedidos, meanwhile, holds the only slot for three slow calls. */
const script: ScriptInput = {
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    {
      agent: 'dev:catalogo',
      tool_calls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }],
    },
    {
      agent: 'dev:pedidos',
      delay_ms: 1500,
      tool_calls: [{ name: 'listar_contratos_de_modulos', arguments: {} }],
    },
    {
      agent: 'dev:pedidos',
      delay_ms: 3000,
      tool_calls: [{ name: 'listar_contratos_de_modulos', arguments: {} }],
    },
    { agent: 'dev:pedidos', delay_ms: 3000, text: 'Li os contratos.' },
    { agent: 'dev:catalogo', text: 'Apaguei o build.' },
  ],
};

describe.each(testDatabaseEngines())('an approval with one turn slot on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("runs the approved command before the other lane's next model call", {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(engine, script, { FORJA_MAX_PARALLEL_TURNS: '1' });
    close = line.close;
    const { forja } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    const log = () => forja.eventLog.read(sessionId, { limit: 10_000 });
    const isOf = (agent: string, type: string) => (event: { type: string; payload: unknown }) =>
      event.type === type && (event.payload as { agent: string }).agent === agent;
    // Wait until catalogo waits for the person and pedidos holds the slot.
    await expect
      .poll(async () => (await log()).some(isOf('dev:pedidos', 'turn.started')), {
        timeout: 60_000,
      })
      .toBe(true);
    const proposed = (await log()).find((event) => event.type === 'action.proposed')!;
    const actionId = (proposed.payload as { action_id: string }).action_id;
    // The state's schema holds for an action waiting and a lane's turn in progress (ADR 0423).
    const waiting = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/state`)).body;
    expect(SessionStateSchema.parse(waiting).pending_actions).toHaveLength(1);
    expect((await requestJson(forja, 'POST', `/api/actions/${actionId}/approve`)).status).toBe(202);
    await forja.conversation.idle(sessionId);

    const events = await log();
    for (const event of events) SessionEventSchema.parse(event);
    const ran = events.find(isOf('dev:catalogo', 'tool.completed'))!;
    const pedidosAnswers = events.filter(isOf('dev:pedidos', 'agent.response'));
    expect(pedidosAnswers).toHaveLength(3);
    // The command ran while pedidos was still calling its model, not after its whole turn.
    expect(ran.seq).toBeLessThan(pedidosAnswers.at(-1)!.seq);
    expect(ran.payload).toMatchObject({ tool: 'terminal', ok: true });
  });
});
