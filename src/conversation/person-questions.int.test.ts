import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { SESSION_EVENTS } from '../domain/conversation/index.ts';
import type { ScriptInput } from '../gateway/providers/index.ts';
import { SessionStateSchema } from '../http/view-schemas.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';
import { BRIEF, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

const PRICE = 'Qual o preço da assinatura?';
const SUNDAYS = 'Entrega aos domingos?';
const BRIEF_WITH_QUESTIONS = { ...BRIEF, open_questions: [PRICE, SUNDAYS] };
const DECLARE_BACKLOG = UP_TO_ARQUITETO.find((turn) =>
  turn.tool_calls?.some((call) => call.name === 'declare_backlog'),
)!.tool_calls![0]!;

/** Criativo's part: one answer, the brief with two open questions, and one more answer while the PO waits. */
const CRIATIVO: ScriptInput['turns'] = [
  { agent: 'criativo', text: 'Que ideia boa! Para quem?' },
  { agent: 'criativo', text: JSON.stringify(BRIEF_WITH_QUESTIONS) },
];

/** The PO asks both open questions at once; its lane waits. */
const PO_ASKS: ScriptInput['turns'][number] = {
  agent: 'po',
  expect: {
    system: ['Perguntas em aberto', PRICE, 'Nenhuma decisão silenciosa'],
    tools: ['ask_person', 'record_decision', 'declare_backlog'],
  },
  text: 'Duas perguntas para a pessoa.',
  tool_calls: [
    {
      name: 'ask_person',
      arguments: { question: PRICE, options: ['R$ 30', 'R$ 40'], why: 'O plano depende do preço' },
    },
    { name: 'ask_person', arguments: { question: SUNDAYS } },
  ],
};

const LINE: ScriptInput['turns'] = [
  ...CRIATIVO,
  PO_ASKS,
  // Another lane goes on while the PO waits.
  { agent: 'criativo', expect: { messages: ['user: [#', 'Ainda está aí?'] }, text: 'Estou aqui.' },
  {
    agent: 'po',
    // The answer and "decide yourself" reach the PO's next request.
    expect: {
      messages: [
        'ask_person(',
        `tool: The person answered "${PRICE}": R$ 30 por mês`,
        `tool: The person asked you to decide yourself: "${SUNDAYS}"`,
      ],
    },
    text: 'Registro o que decidi e escrevo o backlog.',
    tool_calls: [
      DECLARE_BACKLOG,
      // Handing off before every open question is closed is refused, naming them.
      { name: 'hand_off_to_arquiteto', arguments: {} },
      {
        name: 'record_decision',
        arguments: {
          question: SUNDAYS,
          answer: 'Não: de segunda a sábado',
          reason: 'A padaria fecha aos domingos',
        },
      },
    ],
  },
  {
    agent: 'po',
    expect: {
      messages: [
        'tool: hand_off_to_arquiteto refused: the brief lists 2 open question(s) and 1 are closed',
        `- ${SUNDAYS}`,
        'tool: Recorded the decision (decided by you)',
      ],
    },
    text: '',
    tool_calls: [{ name: 'hand_off_to_arquiteto', arguments: {} }],
  },
  { agent: 'po', text: 'Backlog pronto.' },
  {
    agent: 'arquiteto',
    // Downstream, the Arquiteto reads both: the person's answer and the PO's decision.
    expect: {
      system: [
        '## Decisões (siga-as)',
        `${PRICE} → R$ 30 por mês (decidido por: a pessoa)`,
        `${SUNDAYS} → Não: de segunda a sábado (decidido por: po; motivo: A padaria fecha aos domingos)`,
      ],
      tools: ['ask_person', 'record_decision'],
    },
    text: 'Li as decisões.',
  },
];

type Question = { question_id: string; agent: string; status: string; question: string };
/** The state's questions; the state parses with its route's schema (ADR 0423). */
const questionsOf = async (forja: Forja, sessionId: string): Promise<Question[]> => [
  ...SessionStateSchema.parse(
    (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/state`)).body,
  ).questions,
];
const typesOf = async (forja: Forja, sessionId: string, afterSeq = 0) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000, afterSeq })).map((event) => [
    event.type,
    (event.payload as { agent?: string }).agent ?? null,
  ]);

/** Criativo, the brief with open questions, the PO's handoff accepted: the PO's kickoff turn runs. */
async function upToThePo(forja: Forja) {
  const { sessionId } = await newSessionThroughApi(forja);
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await requestJson(forja, method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status}`);
    return answer.body;
  };
  await call('POST', `/api/sessions/${sessionId}/agents/criativo/start`);
  await call('POST', `/api/sessions/${sessionId}/messages`, { text: 'Pão de madrugada.' });
  await forja.conversation.idle(sessionId);
  const ready = await call('POST', `/api/sessions/${sessionId}/readiness?wait=true`);
  await call('POST', `/api/handoffs/${ready.handoff.id}/accept`);
  await forja.conversation.idle(sessionId);
  return { sessionId, call };
}

describe.each(testDatabaseEngines())('an agent asks the person on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("the PO asks, its lane waits while Criativo answers, the person answers over HTTP, the PO goes on; its own decision is on the handoff and in the Arquiteto's prompt", {
    timeout: 120_000,
  }, async () => {
    const line = await startLine(engine, { turns: LINE });
    close = line.close;
    const { forja } = line;
    const { sessionId, call } = await upToThePo(forja);

    // Both questions wait at once; the PO's turn is paused, not ended.
    const waiting = await questionsOf(forja, sessionId);
    expect(waiting.map((question) => [question.question, question.agent, question.status])).toEqual(
      [
        [PRICE, 'po', 'asked'],
        [SUNDAYS, 'po', 'asked'],
      ],
    );
    const [price, sundays] = waiting as [Question, Question];

    // Another lane goes on meanwhile.
    await call('POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Ainda está aí?',
      to: 'criativo',
    });
    await forja.conversation.idle(sessionId);

    // Bad answers: 400 naming the field, nothing stored; an unknown question is 404.
    const before = (await forja.eventLog.read(sessionId, { limit: 10_000 })).length;
    const answerPath = (id: string) => `/api/sessions/${sessionId}/questions/${id}/answer`;
    for (const [body, field] of [
      [{}, 'answer'],
      [{ answer: '' }, 'answer'],
      [{ answer: '   ' }, 'answer'],
      [{ answer: 'R$\u000030' }, 'answer'],
      [{ answer: 'R$ 30', decide_yourself: true }, 'decide_yourself'],
      [{ decide_yourself: false }, 'decide_yourself'],
    ] as const) {
      const refused = await requestJson(forja, 'POST', answerPath(price.question_id), body);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
    expect(
      (
        await requestJson(forja, 'POST', answerPath('0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f'), {
          answer: 'x',
        })
      ).status,
    ).toBe(404);
    expect((await forja.eventLog.read(sessionId, { limit: 10_000 })).length).toBe(before);

    // The first answer: the PO still waits for the second question.
    const first = await requestJson(forja, 'POST', answerPath(price.question_id), {
      answer: 'R$ 30 por mês',
    });
    expect(first).toMatchObject({ status: 202, body: { agent: 'po' } });
    await forja.conversation.idle(sessionId);
    expect((await questionsOf(forja, sessionId)).map((question) => question.status)).toEqual([
      'answered',
      'asked',
    ]);
    // The first call has its result; no model call while the second waits.
    expect((await typesOf(forja, sessionId, before)).slice(-2)).toEqual([
      ['person.answered', 'po'],
      ['tool.completed', 'po'],
    ]);
    // One answer each.
    expect(
      (await requestJson(forja, 'POST', answerPath(price.question_id), { answer: 'R$ 40' })).status,
    ).toBe(409);

    // "Decide yourself": the PO goes on, records its decision, writes the backlog and hands off.
    expect(
      await requestJson(forja, 'POST', answerPath(sundays.question_id), { decide_yourself: true }),
    ).toMatchObject({ status: 202 });
    await forja.conversation.idle(sessionId);
    const failed = (await forja.eventLog.read(sessionId, { limit: 10_000 })).filter(
      (event) => event.type === 'turn.failed',
    );
    expect(failed).toEqual([]);

    // The PO's own decision is listed on the handoff the person accepts next.
    const handoffs = (await call('GET', `/api/sessions/${sessionId}/handoffs`)).handoffs as Array<{
      id: string;
      to_agent: string;
      decisions: Array<{ question: string; answer: string; decided_by: string }>;
    }>;
    const toArquiteto = handoffs.find((handoff) => handoff.to_agent === 'arquiteto')!;
    expect(toArquiteto.decisions).toMatchObject([
      { question: SUNDAYS, answer: 'Não: de segunda a sábado', decided_by: 'po' },
    ]);
    expect(handoffs.find((handoff) => handoff.to_agent === 'po')!.decisions).toEqual([]);

    await call('POST', `/api/handoffs/${toArquiteto.id}/accept`);
    await forja.conversation.idle(sessionId);
    const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(events.filter((event) => event.type === 'turn.failed')).toEqual([]);
    expect(
      events
        .filter((event) => event.type === 'agent.response')
        .map((event) => (event.payload as { text: string }).text)
        .at(-1),
    ).toBe('Li as decisões.');
  });

  it('after a restart a waiting question still waits, and an answer recorded before the turn ran is taken once', {
    timeout: 120_000,
  }, async () => {
    const database = await engine.open();
    const first = await startLine(engine, { turns: [...CRIATIVO, PO_ASKS] }, {}, { database });
    close = async () => (await first.close(), await database.close());
    const { sessionId } = await upToThePo(first.forja);
    const [price, sundays] = (await questionsOf(first.forja, sessionId)) as [Question, Question];
    await first.close();

    // Restarted: the PO's lane is picked up and still waits; no model call (the script has no turn).
    const waiting = await startLine(engine, { turns: [] }, {}, { database });
    close = async () => (await waiting.close(), await database.close());
    const seen = (await waiting.forja.eventLog.read(sessionId, { limit: 10_000 })).length;
    await Promise.all(
      (await waiting.forja.conversation.resumeInterruptedTurns()).map((turn) => turn.result),
    );
    await waiting.forja.conversation.idle(sessionId);
    expect(await typesOf(waiting.forja, sessionId, seen)).toEqual([]);
    // What a process that stopped right after committing the answers leaves: the answers, no turn.
    for (const [question, reply] of [
      [price, { answer: 'R$ 30 por mês', decide_yourself: false }],
      [sundays, { answer: '', decide_yourself: true }],
    ] as const)
      await waiting.forja.eventLog.append(sessionId, [
        SESSION_EVENTS.personAnswered.create('user', {
          v: 1,
          question_id: question.question_id,
          agent: 'po',
          ...reply,
        }),
      ]);
    await waiting.close();

    const after = await startLine(
      engine,
      {
        turns: [
          {
            agent: 'po',
            expect: {
              messages: [
                `tool: The person answered "${PRICE}": R$ 30 por mês`,
                `tool: The person asked you to decide yourself: "${SUNDAYS}"`,
              ],
            },
            text: 'Obrigado.',
          },
        ],
      },
      {},
      { database },
    );
    close = async () => (await after.close(), await database.close());
    const answeredAt = (await after.forja.eventLog.read(sessionId, { limit: 10_000 })).length;
    const resumed = await after.forja.conversation.resumeInterruptedTurns();
    expect(resumed.map((turn) => turn.agent)).toEqual(['po']);
    expect((await Promise.all(resumed.map((turn) => turn.result))).map((r) => r.status)).toEqual([
      'completed',
    ]);
    await after.forja.conversation.idle(sessionId);
    expect(await typesOf(after.forja, sessionId, answeredAt)).toEqual([
      ['tool.completed', 'po'],
      ['tool.completed', 'po'],
      ['agent.response', 'po'],
      ['turn.ended', 'po'],
    ]);
    // Once: a second start-up owes nothing.
    expect(await after.forja.conversation.resumeInterruptedTurns()).toEqual([]);
  });
});
