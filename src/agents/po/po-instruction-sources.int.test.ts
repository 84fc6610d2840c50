import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { offerHandoff } from '../../domain/handoffs/index.ts';
import { createPostgresGraphStore, seedTemplates } from '../../memory/index.ts';
import { startMemoryForja } from '../../memory/testing/start-memory-forja.ts';
import { insertHandoff, writeAgentInstructions } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';

describe.each(testDatabaseEngines())("the PO's instruction sources on $name", (engine) => {
  let forja: Forja;
  afterEach(() => forja?.close());

  /** A project whose workspace has a root and a deeper AGENTS.md, a session, and a handoff offered to the PO. */
  async function projectWithHandoff(dataDirectory: string) {
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
    const session = await requestJson(
      forja,
      'POST',
      `/api/projects/${project.body.id}/sessions`,
      {},
    );
    const workspace = path.join(dataDirectory, 'projects', project.body.id, 'workspace');
    await mkdir(path.join(workspace, 'web'), { recursive: true });
    await writeFile(path.join(workspace, 'AGENTS.md'), 'RAIZ: regras da raiz.\n');
    // Marked global: an agent that is not a dev reads the root and the global files (ADR 0090).
    await writeFile(
      path.join(workspace, 'web', 'AGENTS.md'),
      '<!-- forja:global -->\nDIR: regras da pasta web.\n',
    );
    const offered = offerHandoff({
      id: crypto.randomUUID(),
      session_id: session.body.id,
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: null,
      actor: 'system',
    });
    if (!offered.ok) throw new Error(offered.reason);
    await forja.database.transaction(async (transaction) => {
      await insertHandoff(transaction, offered.handoff);
      await forja.eventLog.appendWithin(transaction, session.body.id, [offered.event]);
    });
    return {
      projectId: project.body.id as string,
      sessionId: session.body.id as string,
      handoffId: offered.handoff.id,
    };
  }

  it('runs only once an accepted handoff addresses it, with instructions in priority db > graph > dir > root', async () => {
    const started = await startMemoryForja(engine, {
      env: { GRAPH_INSTRUCTION_TEMPLATES_ENABLED: 'true' },
      script: {
        turns: [{ agent: 'po', text: 'Vamos começar pelo fluxo de assinatura.' }],
      },
    });
    forja = started.forja;
    await seedTemplates(forja.database, createPostgresGraphStore, [
      { name: 'po-instructions', body: 'GRAFO: instruções do grafo.' },
    ]);
    const { projectId, sessionId, handoffId } = await projectWithHandoff(started.dataDirectory);
    await writeAgentInstructions(forja.database, projectId, 'po', 'DB: o patch da pessoa vence.');

    expect(
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/po/start`),
    ).toMatchObject({ status: 409, body: { error: { code: 'activation_refused' } } });
    expect((await requestJson(forja, 'POST', `/api/handoffs/${handoffId}/accept`)).status).toBe(
      200,
    );
    await forja.conversation.idle(sessionId);

    const system = started.requests.find((request) => request.agent === 'po')?.system ?? '';
    const order = ['RAIZ:', 'DIR:', 'GRAFO:', 'DB:'].map((marker) => system.indexOf(marker));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((left, right) => left - right)).toEqual(order);
    expect((await forja.eventLog.read(sessionId)).map((event) => event.type)).toEqual([
      'session.created',
      'handoff.offered',
      'handoff.accepted',
      'agent.activated',
      'turn.started',
      'agent.response',
      'turn.ended',
    ]);
  });

  it('with graph_instruction_templates_enabled off (the default), never reads the graph template', async () => {
    const started = await startMemoryForja(engine, {
      script: { turns: [{ agent: 'po', text: 'Olá.' }] },
    });
    forja = started.forja;
    await seedTemplates(forja.database, createPostgresGraphStore, [
      { name: 'po-instructions', body: 'GRAFO: instruções do grafo.' },
    ]);
    const { sessionId, handoffId } = await projectWithHandoff(started.dataDirectory);
    await requestJson(forja, 'POST', `/api/handoffs/${handoffId}/accept`);
    await forja.conversation.idle(sessionId);
    const system = started.requests.find((request) => request.agent === 'po')?.system ?? '';
    expect(system).toContain('RAIZ:');
    expect(system).not.toContain('GRAFO:');
  });
});
