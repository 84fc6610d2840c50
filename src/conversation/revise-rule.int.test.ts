import { afterEach, describe, expect, it } from 'vitest';
import { SessionStateSchema } from '../http/view-schemas.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { LINE_MESSAGES, playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { ARQUITETO, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

/** The rule Criativo records (seq 6 of the line script) and the person's message to dev:pedidos changing it. */
const RULE_SEQ = 6;
const CHANGE = 'A entrega agora pode ser até as 7h.';
/** The seq the person's message to dev:pedidos gets once the devs' first turns ended (the line script's log). */
const CHANGE_SEQ = 77;
const HS_002 = {
  id: 'HS-002',
  epic_id: 'EP-001',
  title: 'Assinar',
  description: 'A pessoa faz um pedido',
  acceptance_criteria: ['o pedido guarda o pão e a quantidade', 'o pão chega antes das 7h'],
};

/**
 * A rule the person changes in a message to a dev: the dev records its new version (`revise_rule`), the old one
 * is kept and marked superseded, and the PO (which re-declares the story that follows it) and the Arquiteto
 * are each given a turn told what changed.
 */
const TURNS = [
  ...UP_TO_ARQUITETO,
  ...ARQUITETO,
  { agent: 'dev:catalogo', text: 'Começo AT-001.' },
  { agent: 'dev:pedidos', text: 'Começo AT-002.' },
  {
    agent: 'dev:pedidos',
    expect: {
      system: [`regra #${RULE_SEQ}`, 'Entrega cedo: Toda entrega acontece antes das 6h.'],
      tools: ['revise_rule'],
      messages: [`[#${CHANGE_SEQ}] ${CHANGE}`],
    },
    tool_calls: [
      {
        // A rule recorded from no message of the person's is refused: only the person changes a rule.
        name: 'revise_rule',
        arguments: {
          rule_id: `#${RULE_SEQ}`,
          statement: 'Toda entrega acontece antes das 7h.',
          origin: [RULE_SEQ - 1],
        },
      },
    ],
  },
  {
    agent: 'dev:pedidos',
    expect: { messages: ["origin: must cite at least one of the person's messages"] },
    tool_calls: [
      {
        name: 'revise_rule',
        arguments: {
          rule_id: `regra #${RULE_SEQ}`,
          statement: 'Toda entrega acontece antes das 7h.',
          origin: [CHANGE_SEQ],
        },
      },
    ],
  },
  {
    agent: 'dev:pedidos',
    expect: { messages: ['Revised "Entrega cedo"', 'The PO and the Arquiteto are told.'] },
    text: 'Anotei a regra nova: até as 7h.',
  },
  {
    agent: 'po',
    expect: {
      system: [
        'Regras revisadas pela pessoa desde o seu último turno',
        `substitui a regra #${RULE_SEQ}`,
        'revisada por dev:pedidos a partir de #',
        'antes "Toda entrega acontece antes das 6h."; agora "Toda entrega acontece antes das 7h."',
        'Re-declare com declare_backlog',
        // The rules layer holds the new version only.
        'Entrega cedo: Toda entrega acontece antes das 7h.',
      ],
    },
    tool_calls: [{ name: 'declare_backlog', arguments: { stories: [HS_002] } }],
  },
  { agent: 'po', text: 'HS-002 segue a regra nova.' },
  {
    agent: 'arquiteto',
    expect: {
      system: [
        'Regras revisadas pela pessoa desde o seu último turno',
        'Veja se contratos, mapa ou tarefas dependem da regra',
      ],
    },
    text: 'Nenhum contrato depende do horário.',
  },
];

/** The person's message to Criativo changing the rule, and the seq it gets after the first exchange. */
const CRIATIVO_CHANGE_SEQ = 10;

/**
 * The same change said to Criativo before readiness: its task tells it to revise (the words reach the request),
 * the rule gets a new version, and no PO or Arquiteto turn is owed (neither has started).
 */
const CRIATIVO_TURNS = [
  UP_TO_ARQUITETO[0]!,
  {
    agent: 'criativo',
    expect: {
      system: ['use revise_rule', `regra #${RULE_SEQ}`],
      tools: ['revise_rule'],
      messages: [`[#${CRIATIVO_CHANGE_SEQ}] ${CHANGE}`],
    },
    tool_calls: [
      {
        name: 'revise_rule',
        arguments: {
          rule_id: `regra #${RULE_SEQ}`,
          statement: 'Toda entrega acontece antes das 7h.',
          origin: [CRIATIVO_CHANGE_SEQ],
        },
      },
    ],
  },
  {
    agent: 'criativo',
    expect: {
      system: ['Entrega cedo: Toda entrega acontece antes das 7h.'],
      messages: ['Revised "Entrega cedo"'],
    },
    text: 'Anotei: até as 7h.',
  },
];

describe.each(testDatabaseEngines())('a rule the person changes, on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('told to a dev, it becomes a new version superseding the old; the PO re-declares the story and the Arquiteto is told', {
    timeout: 120_000,
  }, async () => {
    const line = await startLine(engine, { turns: TURNS });
    close = line.close;
    const { forja, provider } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);
    const sent = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: CHANGE,
      to: 'dev:pedidos',
    });
    expect(sent.body).toMatchObject({ type: 'chat.message', seq: CHANGE_SEQ });
    await forja.conversation.idle(sessionId);

    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(log.filter((event) => event.type === 'turn.failed')).toEqual([]);
    provider.assertAllTurnsConsumed();

    const rules = log.filter((event) => event.type === 'artifact.business_rule');
    expect(rules.map((event) => [event.actor, event.payload])).toEqual([
      ['criativo', expect.objectContaining({ origin: [3] })],
      [
        'dev:pedidos',
        {
          v: 1,
          data: { title: 'Entrega cedo', statement: 'Toda entrega acontece antes das 7h.' },
          origin: [CHANGE_SEQ],
          supersedes: rules[0]!.id,
        },
      ],
    ]);
    const state = SessionStateSchema.parse(
      (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/state`)).body,
    );
    expect(state.business_rules).toEqual([
      expect.objectContaining({
        event_id: rules[1]!.id,
        statement: 'Toda entrega acontece antes das 7h.',
        supersedes: rules[0]!.id,
        recorded_by: 'dev:pedidos',
      }),
    ]);
    expect(state.superseded_rules).toEqual([
      expect.objectContaining({ event_id: rules[0]!.id, superseded_by: rules[1]!.id }),
    ]);

    // The story follows in a new version; the PO and the Arquiteto had one turn each for it.
    const stories = log.filter(
      (event) =>
        event.type === 'artifact.story' &&
        (event.payload as { data: { id: string } }).data.id === 'HS-002',
    );
    expect(stories.map((event) => (event.payload as { data: unknown }).data)).toEqual([
      expect.objectContaining({ acceptance_criteria: ['o pedido guarda o pão e a quantidade'] }),
      HS_002,
    ]);
    const starts = (agent: string) =>
      log.filter(
        (event) =>
          event.type === 'turn.started' && (event.payload as { agent: string }).agent === agent,
      ).length;
    expect([starts('po'), starts('arquiteto')]).toEqual([2, 2]);
  });
  it('told to Criativo before readiness, it becomes a new version, and no PO or Arquiteto turn is owed', async () => {
    const line = await startLine(engine, { turns: CRIATIVO_TURNS });
    close = line.close;
    const { forja, provider } = line;
    const project = (await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' })).body;
    const session = (
      await requestJson(forja, 'POST', `/api/projects/${project.id}/sessions`, { title: 'Ideia' })
    ).body;
    const sessionId = session.id as string;
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: LINE_MESSAGES[0],
    });
    await forja.conversation.idle(sessionId);
    const sent = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: CHANGE,
    });
    expect(sent.body).toMatchObject({ type: 'chat.message', seq: CRIATIVO_CHANGE_SEQ });
    await forja.conversation.idle(sessionId);

    provider.assertAllTurnsConsumed();
    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(log.filter((event) => event.type === 'turn.failed')).toEqual([]);
    const rules = log.filter((event) => event.type === 'artifact.business_rule');
    expect(rules.map((event) => [event.actor, event.payload])).toEqual([
      ['criativo', expect.objectContaining({ origin: [3] })],
      [
        'criativo',
        expect.objectContaining({ supersedes: rules[0]!.id, origin: [CRIATIVO_CHANGE_SEQ] }),
      ],
    ]);
    const agents = log
      .filter((event) => event.type === 'turn.started')
      .map((event) => (event.payload as { agent: string }).agent);
    expect(new Set(agents)).toEqual(new Set(['criativo']));
  });
});
