import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import type { ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { ARQUITETO, UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

type Turn = ScriptInput['turns'][number];

/** The Arquiteto's turns of the line script, with what its calls must carry added to the nth call's `expect`. */
const arquitetoExpecting = (expected: Record<number, string[]>): Turn[] =>
  ARQUITETO.map((turn, index) =>
    expected[index] === undefined
      ? turn
      : {
          ...turn,
          expect: { ...turn.expect, system: [...(turn.expect?.system ?? []), ...expected[index]] },
        },
  );

/** Accepts the handoff to `dev:<module>` and waits for its kickoff to end. */
async function acceptDev(forja: Forja, sessionId: string, module: string): Promise<void> {
  const { handoffs } = (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/handoffs`))
    .body as { handoffs: Array<{ id: string; to_agent: string; status: string }> };
  const handoff = handoffs.find(
    (candidate) => candidate.to_agent === `dev:${module}` && candidate.status === 'offered',
  );
  if (handoff === undefined) throw new Error(`no handoff offered to dev:${module}`);
  await requestJson(forja, 'POST', `/api/handoffs/${handoff.id}/accept`);
  await forja.conversation.idle(sessionId);
}

/** Every failed turn's message: a scripted call that did not carry what its turn expects ends there. */
const failures = async (forja: Forja, sessionId: string) =>
  (await forja.eventLog.read(sessionId, { limit: 10_000 }))
    .filter((event) => event.type === 'turn.failed' || event.type === 'toolloop.limit_reached')
    .map((event) => JSON.stringify(event.payload));

describe.each(testDatabaseEngines())('what each agent of the line is told, on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("the Arquiteto reads the whole backlog with the PO's descriptions and its contracts with descricao; a dev its epic, its stories' criteria and its tasks", {
    timeout: 120_000,
  }, async () => {
    const line = await startLine(engine, {
      turns: [
        ...UP_TO_ARQUITETO,
        ...arquitetoExpecting({
          // The epic's, the story's and the task's descriptions, where the PO wrote its decisions.
          0: [
            'A pessoa assina e recebe pão cedo',
            'A pessoa vê o catálogo',
            'Função que lista os pães',
            '- critério: lista os pães com preço',
          ],
          // After the contracts: its own view keeps `descricao`.
          6: ['- [funcao] listarPaes(): Pao[] — Os pães à venda hoje'],
        }),
        {
          agent: 'dev:catalogo',
          expect: {
            system: [
              '### Épico EP-001 — Assinatura de pão',
              'A pessoa assina e recebe pão cedo',
              '### História HS-001 — Ver os pães',
              '- critério da história: lista os pães com preço',
              '### AT-001 — Listar pães',
              'Função que lista os pães',
              '- critério: devolve os pães do dia',
            ],
          },
          text: 'Li a tarefa e a história.',
        },
      ],
    });
    close = line.close;
    const { forja, provider } = line;
    const { sessionId } = await playUpToTheDevs(forja);
    await acceptDev(forja, sessionId, 'catalogo');
    expect(await failures(forja, sessionId)).toEqual([]);
    provider.assertAllTurnsConsumed();
  });
});
