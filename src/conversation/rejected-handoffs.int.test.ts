import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { transitionHandoff } from '../domain/handoffs/index.ts';
import type { ScriptInput } from '../gateway/providers/index.ts';
import { lockHandoff, updateHandoffStatus } from '../store/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';
import { ARQUITETO, BRIEF, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { LINE_MESSAGES } from './testing/play-up-to-the-devs.ts';
import { startLine } from './testing/start-line.ts';

type Handoff = { id: string; from_agent: string; to_agent: string; status: string };

const handoffsOf = async (forja: Forja, sessionId: string): Promise<Handoff[]> =>
  (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/handoffs`)).body.handoffs;

/** What each agent said, in order: `[agent, text]` of every `agent.response` with text. */
const responses = async (forja: Forja, sessionId: string) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000 }))
    .filter((event) => event.type === 'agent.response')
    .map((event) => event.payload as { agent: string; text: string })
    .filter((payload) => payload.text !== '')
    .map((payload) => [payload.agent, payload.text]);

const REASON = 'Falta o preço da assinatura';
const BRIEF_V2 = { ...BRIEF, goals: [...BRIEF.goals, 'Assinatura de R$ 30 por mês'] };

/** Criativo's part when the person rejects the first brief: its turn is told why, and a v2 follows. */
const CRIATIVO_REJECTED: ScriptInput['turns'] = [
  { agent: 'criativo', text: 'Que ideia boa! Para quem?' },
  { agent: 'criativo', text: JSON.stringify(BRIEF) },
  {
    agent: 'criativo',
    // The rejection reaches the model: its task state names the handoff and the person's reason.
    expect: {
      system: [
        '## Handoff rejeitado pela pessoa',
        `Motivo: ${REASON}`,
        'Estou pronto para produzir',
      ],
      messages: ['assistant: Que ideia boa!'],
    },
    text: 'Entendi: qual é o preço da assinatura?',
  },
  {
    agent: 'criativo',
    expect: { messages: ['assistant: Entendi: qual é o preço', 'user: [#', 'R$ 30 por mês'] },
    text: 'Anotado. Aperte o botão de novo quando quiser.',
  },
  {
    agent: 'criativo',
    expect: {
      system: [
        'Consolide o product brief',
        `rejeitou o handoff do brief v1 ao PO. Motivo: ${REASON}`,
        'Este é o brief v2',
      ],
      messages: ['R$ 30 por mês'],
    },
    text: JSON.stringify(BRIEF_V2),
  },
  {
    agent: 'po',
    // The PO works from the current brief: version 2.
    expect: { system: [`## Product brief: ${BRIEF.title} (v2)`, 'Assinatura de R$ 30 por mês'] },
    text: 'Li o brief v2.',
  },
];

const PO_REASON = 'Faltam os critérios de entrega';
const DEV_REASON = 'Comece só pelo catálogo';

/** The line up to the devs, with the person rejecting the PO's handoff to the Arquiteto, then one dev handoff. */
const LINE_REJECTED: ScriptInput['turns'] = [
  ...UP_TO_ARQUITETO,
  {
    agent: 'po',
    expect: {
      system: [
        '## Handoff rejeitado pela pessoa',
        'O handoff para arquiteto (',
        `Motivo: ${PO_REASON}`,
        'O trabalho ainda não foi oferecido ao Arquiteto.',
      ],
      tools: ['hand_off_to_arquiteto'],
    },
    tool_calls: [{ name: 'hand_off_to_arquiteto', arguments: {} }],
  },
  { agent: 'po', text: 'Ofereci de novo ao Arquiteto.' },
  ...ARQUITETO,
  {
    agent: 'arquiteto',
    expect: {
      system: [
        '## Handoff rejeitado pela pessoa',
        'O handoff para dev:pedidos (',
        `Motivo: ${DEV_REASON}`,
      ],
      tools: ['hand_off_to_devs'],
    },
    tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }],
  },
  {
    agent: 'arquiteto',
    expect: { messages: ['tool: Offered: dev:pedidos', 'Already offered before: dev:catalogo'] },
    text: 'Ofereci de novo o módulo pedidos.',
  },
];

describe.each(testDatabaseEngines())(
  'a rejected handoff goes back to its sender on $name',
  (engine) => {
    let close: (() => Promise<unknown>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it("rejecting the PO's handoff gives Criativo a turn with the reason; readiness again consolidates brief v2, offered again", async () => {
      const line = await startLine(engine, { turns: CRIATIVO_REJECTED });
      close = line.close;
      const { forja } = line;
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: LINE_MESSAGES[0],
      });
      await forja.conversation.idle(sessionId);
      const first = await requestJson(
        forja,
        'POST',
        `/api/sessions/${sessionId}/readiness?wait=true`,
      );
      expect(first).toMatchObject({
        status: 201,
        body: { brief: { payload: { data: { version: 1 } } } },
      });
      const v1 = first.body.brief;

      // Bad rejections: 400 naming `reason`, and nothing stored.
      const before = (await forja.eventLog.read(sessionId)).length;
      for (const body of [
        undefined,
        {},
        { reason: '' },
        { reason: '   ' },
        { reason: 'a\u0000b' },
        { reason: 'x'.repeat(1001) },
      ]) {
        const refused = await requestJson(
          forja,
          'POST',
          `/api/handoffs/${first.body.handoff.id}/reject`,
          body,
        );
        expect(refused, JSON.stringify(body)).toMatchObject({
          status: 400,
          body: { error: { field: 'reason' } },
        });
      }
      expect((await forja.eventLog.read(sessionId)).length).toBe(before);
      expect((await handoffsOf(forja, sessionId)).map((handoff) => handoff.status)).toEqual([
        'offered',
      ]);

      expect(
        await requestJson(forja, 'POST', `/api/handoffs/${first.body.handoff.id}/reject`, {
          reason: REASON,
        }),
      ).toMatchObject({ status: 200, body: { status: 'rejected' } });
      await forja.conversation.idle(sessionId);
      const afterReject = (await forja.eventLog.read(sessionId)).slice(before);
      expect(
        afterReject.map((event) => [
          event.type,
          (event.payload as { agent?: string }).agent ?? null,
        ]),
      ).toEqual([
        ['handoff.rejected', null],
        ['turn.started', 'criativo'],
        ['agent.response', 'criativo'],
        ['turn.ended', 'criativo'],
      ]);
      expect(afterReject[0]!.payload).toMatchObject({ reason: REASON, from_agent: 'criativo' });

      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'R$ 30 por mês.',
      });
      await forja.conversation.idle(sessionId);
      const second = await requestJson(
        forja,
        'POST',
        `/api/sessions/${sessionId}/readiness?wait=true`,
      );
      expect(second).toMatchObject({
        status: 201,
        body: {
          brief: {
            type: 'artifact.product_brief',
            payload: { data: { version: 2, goals: BRIEF_V2.goals } },
          },
          handoff: { from_agent: 'criativo', to_agent: 'po', status: 'offered' },
        },
      });
      expect(second.body.handoff.artifact_id).toBe(second.body.brief.id);
      expect(second.body.handoff.id).not.toBe(first.body.handoff.id);
      expect(
        (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`)).body,
      ).toMatchObject({ error: { code: 'brief_exists', message: expect.stringContaining('v2') } });

      // The current brief is v2; v1 stays readable in the state and the log.
      const state = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/state`)).body;
      expect(state.product_brief).toMatchObject({
        event_id: second.body.brief.id,
        data: { version: 2 },
      });
      expect(
        state.product_briefs.map((brief: { event_id: string; data: { version: number } }) => [
          brief.event_id,
          brief.data.version,
        ]),
      ).toEqual([
        [v1.id, 1],
        [second.body.brief.id, 2],
      ]);
      const events = (
        await requestJson(forja, 'GET', `/api/sessions/${sessionId}/events?limit=1000`)
      ).body.events as Array<{ id: string; payload: unknown }>;
      expect(events.find((event) => event.id === v1.id)?.payload).toEqual(v1.payload);

      expect(
        await requestJson(forja, 'POST', `/api/handoffs/${second.body.handoff.id}/accept`),
      ).toMatchObject({ status: 200, body: { status: 'accepted' } });
      await forja.conversation.idle(sessionId);
      expect((await responses(forja, sessionId)).slice(-3)).toEqual([
        ['criativo', 'Anotado. Aperte o botão de novo quando quiser.'],
        ['criativo', `Product brief consolidado (v2): ${BRIEF.title}. Ofereci o trabalho ao PO.`],
        ['po', 'Li o brief v2.'],
      ]);
    });

    it("a restart between the rejection and the sender's turn: start-up gives Criativo that turn, with the reason, once", async () => {
      const database = await engine.open();
      close = () => database.close();
      const before = await startLine(
        engine,
        { turns: CRIATIVO_REJECTED.slice(0, 2) },
        {},
        { database },
      );
      const { sessionId } = await newSessionThroughApi(before.forja);
      await requestJson(before.forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      await requestJson(before.forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: LINE_MESSAGES[0],
      });
      await before.forja.conversation.idle(sessionId);
      const ready = await requestJson(
        before.forja,
        'POST',
        `/api/sessions/${sessionId}/readiness?wait=true`,
      );
      await before.forja.conversation.idle(sessionId);
      // What a process that stopped right after committing the rejection leaves: the row and its event, no turn.
      await database.transaction(async (transaction) => {
        const handoff = await lockHandoff(transaction, ready.body.handoff.id);
        const moved = transitionHandoff(handoff!, {
          type: 'reject',
          actor: 'user',
          reason: REASON,
        });
        if (!moved.ok) throw new Error(moved.reason);
        await updateHandoffStatus(transaction, moved.handoff);
        await before.forja.eventLog.appendWithin(transaction, sessionId, [moved.event]);
      });
      await before.close();
      const rejectedAt = (
        await database.query<{ seq: number }>(
          `select seq from session_events where session_id = $1 and type = 'handoff.rejected'`,
          [sessionId],
        )
      ).rows[0]!.seq;

      // The restarted process: the scripted turn's `expect` checks the reason reaches the model.
      const after = await startLine(
        engine,
        { turns: CRIATIVO_REJECTED.slice(2, 3) },
        {},
        { database },
      );
      close = async () => (await after.close(), await database.close());
      const resumed = await after.forja.conversation.resumeInterruptedTurns();
      expect(resumed.map((turn) => [turn.sessionId, turn.agent])).toEqual([
        [sessionId, 'criativo'],
      ]);
      expect((await Promise.all(resumed.map((turn) => turn.result))).map((r) => r.status)).toEqual([
        'completed',
      ]);
      await after.forja.conversation.idle(sessionId);
      const since = (await after.forja.eventLog.read(sessionId, { limit: 10_000 })).filter(
        (event) => event.seq >= rejectedAt,
      );
      expect(
        since.map((event) => [event.type, (event.payload as { agent?: string }).agent ?? null]),
      ).toEqual([
        ['handoff.rejected', null],
        ['turn.started', 'criativo'],
        ['agent.response', 'criativo'],
        ['turn.ended', 'criativo'],
      ]);
      expect((await responses(after.forja, sessionId)).at(-1)).toEqual([
        'criativo',
        'Entendi: qual é o preço da assinatura?',
      ]);
      // Started once: a second start-up owes nothing, and readiness opens again.
      expect(await after.forja.conversation.resumeInterruptedTurns()).toEqual([]);
      const state = (await requestJson(after.forja, 'GET', `/api/sessions/${sessionId}/state`))
        .body;
      expect(state.product_brief).toMatchObject({ data: { version: 1 } });
    });

    it("rejecting the Arquiteto's handoff gives the PO a turn with the reason, and a rejected dev handoff gives the Arquiteto one", {
      timeout: 240_000,
    }, async () => {
      const line = await startLine(engine, { turns: LINE_REJECTED });
      close = line.close;
      const { forja } = line;
      const { sessionId } = await newSessionThroughApi(forja);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      for (const text of LINE_MESSAGES) {
        await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
        await forja.conversation.idle(sessionId);
      }
      const ready = await requestJson(
        forja,
        'POST',
        `/api/sessions/${sessionId}/readiness?wait=true`,
      );
      await requestJson(forja, 'POST', `/api/handoffs/${ready.body.handoff.id}/accept`);
      await forja.conversation.idle(sessionId);
      const toArquiteto = (await handoffsOf(forja, sessionId)).find(
        (handoff) => handoff.to_agent === 'arquiteto',
      )!;
      expect(toArquiteto).toMatchObject({ from_agent: 'po', status: 'offered' });

      expect(
        await requestJson(forja, 'POST', `/api/handoffs/${toArquiteto.id}/reject`, {
          reason: PO_REASON,
        }),
      ).toMatchObject({ status: 200, body: { status: 'rejected' } });
      await forja.conversation.idle(sessionId);
      const again = (await handoffsOf(forja, sessionId)).filter(
        (handoff) => handoff.to_agent === 'arquiteto',
      );
      expect(again.map((handoff) => [handoff.from_agent, handoff.status])).toEqual([
        ['po', 'rejected'],
        ['po', 'offered'],
      ]);
      expect((await responses(forja, sessionId)).at(-1)).toEqual([
        'po',
        'Ofereci de novo ao Arquiteto.',
      ]);

      await requestJson(forja, 'POST', `/api/handoffs/${again[1]!.id}/accept`);
      await forja.conversation.idle(sessionId);
      const devs = (await handoffsOf(forja, sessionId)).filter((handoff) =>
        handoff.to_agent.startsWith('dev:'),
      );
      expect(devs.map((handoff) => [handoff.to_agent, handoff.status])).toEqual([
        ['dev:catalogo', 'offered'],
        ['dev:pedidos', 'offered'],
      ]);
      const pedidos = devs.find((handoff) => handoff.to_agent === 'dev:pedidos')!;
      expect(
        await requestJson(forja, 'POST', `/api/handoffs/${pedidos.id}/reject`, {
          reason: DEV_REASON,
        }),
      ).toMatchObject({ status: 200 });
      await forja.conversation.idle(sessionId);
      expect(
        (await handoffsOf(forja, sessionId))
          .filter((handoff) => handoff.to_agent.startsWith('dev:'))
          .map((handoff) => [handoff.to_agent, handoff.status]),
      ).toEqual([
        ['dev:catalogo', 'offered'],
        ['dev:pedidos', 'rejected'],
        ['dev:pedidos', 'offered'],
      ]);
      expect((await responses(forja, sessionId)).at(-1)).toEqual([
        'arquiteto',
        'Ofereci de novo o módulo pedidos.',
      ]);
      // Every turn of the line ran: none failed on a request that lacked what its script expects.
      const failed = (await forja.eventLog.read(sessionId, { limit: 10_000 })).filter(
        (event) => event.type === 'turn.failed',
      );
      expect(failed).toEqual([]);
    });
  },
);
