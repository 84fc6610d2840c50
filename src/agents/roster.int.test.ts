import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createForja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { playUpToTheDevs } from '../conversation/testing/play-up-to-the-devs.ts';
import { ARQUITETO, UP_TO_ARQUITETO } from '../conversation/testing/production-line-script.ts';
import { offerHandoff } from '../domain/handoffs/index.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import { insertHandoff } from '../store/index.ts';
import { testDatabaseEngines, type TestDatabaseEngine } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import type { AgentDefinition, RosterDependencies } from './agent-definition.ts';
import { openLineFixture } from './dev/test-support/line-fixture.ts';
import { AGENT_ROSTER, definitionOf } from './roster.ts';
import { REVISOR_KICKOFF, revisorDefinition } from './testing/revisor/revisor-definition.ts';

async function startForja(
  engine: TestDatabaseEngine,
  script: ScriptInput,
  roster: readonly AgentDefinition[] = AGENT_ROSTER,
) {
  const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-roster-'));
  const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await engine.open();
  const provider = createScriptedProvider({ script });
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database,
    provider,
    roster,
  });
  const close = async () => {
    await forja.close();
    await database.close();
    await rm(dataDirectory, { recursive: true, force: true });
  };
  return { forja, provider, close };
}

describe.each(testDatabaseEngines())('the roster on $name', (engine) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('an agent added as one folder and one roster line (and a handoff target) takes its kickoff turn in its own lane, with its identity, kickoff and tools', async () => {
    const poHandsToIt = AGENT_ROSTER.map((agent) =>
      agent.slug === 'po'
        ? { ...agent, handoffTargets: [...agent.handoffTargets, 'revisor'] }
        : agent,
    );
    const started = await startForja(
      engine,
      {
        turns: [
          {
            agent: 'revisor',
            expect: {
              system: [revisorDefinition.identity, REVISOR_KICKOFF],
              tools: ['record_review'],
            },
            text: '',
            tool_calls: [{ name: 'record_review', arguments: { note: 'falta HS-002' } }],
          },
          { agent: 'revisor', text: 'Revisado.' },
        ],
      },
      [...poHandsToIt, revisorDefinition],
    );
    close = started.close;
    const { forja, provider } = started;
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
    const session = await requestJson(
      forja,
      'POST',
      `/api/projects/${project.body.id}/sessions`,
      {},
    );
    const offered = offerHandoff({
      id: crypto.randomUUID(),
      session_id: session.body.id,
      from_agent: 'po',
      to_agent: 'revisor',
      artifact_id: null,
      actor: 'po',
    });
    if (!offered.ok) throw new Error(offered.reason);
    await forja.database.transaction(async (transaction) => {
      await insertHandoff(transaction, offered.handoff);
      await forja.eventLog.appendWithin(transaction, session.body.id, [offered.event]);
    });
    expect(
      (await requestJson(forja, 'POST', `/api/handoffs/${offered.handoff.id}/accept`)).status,
    ).toBe(200);
    await forja.conversation.idle(session.body.id);

    const events = await forja.eventLog.read(session.body.id);
    expect(
      events
        .filter((event) => (event.payload as { agent?: string }).agent === 'revisor')
        .map((event) => event.type),
    ).toEqual([
      'agent.activated',
      'turn.started',
      'agent.response',
      'tool.completed',
      'agent.response',
      'turn.ended',
    ]);
    expect(events.find((event) => event.type === 'tool.completed')?.payload).toMatchObject({
      ok: true,
      result: 'nota registrada',
    });
    provider.assertAllTurnsConsumed();
  });

  it('Forja does not start on a roster with a problem, and says which, before it opens anything', async () => {
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    await expect(
      createForja(loaded.config, pino({ level: 'silent' }), {
        env: {},
        roster: [...AGENT_ROSTER, revisorDefinition],
      }),
    ).rejects.toThrow('the agent roster is incomplete: revisor: no agent hands off to it');
  });

  it('each turn-taking agent is built with exactly the tools its definition declares', async () => {
    const fixture = await openLineFixture(engine);
    close = fixture.close;
    const dependencies: RosterDependencies = {
      prompts: fixture.line.prompts,
      line: fixture.line,
      // Turn-taking agents do not use the companions' parts.
      companions: undefined as never,
      flags: { psychologist_enabled: false, anamnese_enabled: false },
    };
    for (const definition of AGENT_ROSTER) {
      const { runs } = definition;
      const agent =
        runs.kind === 'turns'
          ? runs.create(dependencies)
          : runs.kind === 'turns-per-module'
            ? runs.create(dependencies)(`${definition.slug}:pedidos`)
            : null;
      if (agent === null) continue;
      expect({ slug: definition.slug, tools: agent.tools.map((tool) => tool.name) }).toEqual({
        slug: definition.slug,
        tools: [...definition.tools],
      });
    }
  });

  it('every handoff the line offers goes from an agent to one of its declared handoff targets', {
    timeout: 240_000,
  }, async () => {
    const started = await startForja(engine, { turns: [...UP_TO_ARQUITETO, ...ARQUITETO] });
    close = started.close;
    const { sessionId } = await playUpToTheDevs(started.forja);
    await started.forja.conversation.idle(sessionId);
    const offers = (await started.forja.eventLog.read(sessionId, { limit: 10_000 }))
      .filter((event) => event.type === 'handoff.offered')
      .map((event) => event.payload as { from_agent: string; to_agent: string });
    const edges = new Set(
      offers.map((offer) => `${offer.from_agent} → ${offer.to_agent.split(':')[0]}`),
    );
    expect([...edges]).toEqual(['criativo → po', 'po → arquiteto', 'arquiteto → dev']);
    for (const offer of offers)
      expect(definitionOf(offer.from_agent)?.handoffTargets).toContain(
        offer.to_agent.split(':')[0],
      );
  });
});
