import { afterEach, describe, expect, it } from 'vitest';
import type { z } from '@hono/zod-openapi';
import type { Forja } from '../composition.ts';
import { playUpToTheDevs } from '../conversation/testing/play-up-to-the-devs.ts';
import { PRODUCTION_LINE } from '../conversation/testing/production-line-script.ts';
import { startLine } from '../conversation/testing/start-line.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { SessionEventSchema } from './session-event-schema.ts';
import {
  AcceptedDevHandoffsSchema,
  AgentContextSchema,
  BacklogSchema,
  DevProgressSchema,
  KickoffsQueuedSchema,
  ModuleContractsListingSchema,
  ProjectArchitectureSchema,
  SessionLineSchema,
  SessionStateSchema,
} from './view-schemas.ts';

/**
 * The document's response schemas are true (ADR 0423): the answers of a whole production line, played with the
 * scripted model through the API, each parse with their route's schema. The schemas are strict, so a field the
 * document does not name fails here as surely as one it names and the answer lacks.
 */
const [pglite] = testDatabaseEngines();

/** `body` read with `schema`; a mismatch fails naming the route and every field that differs. */
function expectParses(schema: z.ZodType, body: unknown, route: string): void {
  const parsed = schema.safeParse(body);
  if (!parsed.success) expect.fail(`${route}: ${parsed.error.message}`);
}

describe('the response schemas, against a played production line', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('parse every view route answer and every stored event the API sends', {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(pglite!, { turns: PRODUCTION_LINE });
    close = line.close;
    const { forja } = line;
    const { projectId, sessionId } = await playUpToTheDevs(forja);
    const get = async (schema: z.ZodType, path: string) => {
      const answer = await requestJson(forja, 'GET', path);
      expect(answer.status, path).toBe(200);
      expectParses(schema, answer.body, `GET ${path}`);
      return answer.body;
    };
    const views = async () => {
      await get(SessionStateSchema, `/api/sessions/${sessionId}/state`);
      await get(ProjectArchitectureSchema, `/api/projects/${projectId}/architecture`);
      await get(ModuleContractsListingSchema, `/api/projects/${projectId}/module-contracts`);
      await get(
        ModuleContractsListingSchema,
        `/api/projects/${projectId}/module-contracts?module=pedidos`,
      );
      await get(BacklogSchema, `/api/projects/${projectId}/backlog`);
      await get(DevProgressSchema, `/api/sessions/${sessionId}/devs`);
      return get(SessionLineSchema, `/api/sessions/${sessionId}/line`);
    };

    // Before the devs: an architecture, a backlog, no dev yet.
    await views();
    const accepted = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/dev-handoffs/accept`,
    );
    expect(accepted.status).toBe(200);
    expectParses(AcceptedDevHandoffsSchema, accepted.body, 'POST dev-handoffs/accept');
    await forja.conversation.idle(sessionId);
    const kickoffs = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/kickoffs`);
    expect(kickoffs.status).toBe(202);
    expectParses(KickoffsQueuedSchema, kickoffs.body, 'POST kickoffs');
    await forja.conversation.idle(sessionId);

    // The line done: blocks resolved, tasks finished, map v2, line.completed; then merged into main.
    expect((await views()).completed).not.toBeNull();
    const merged = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionId}/line/merge-into-main`,
    );
    expect(merged.status).toBe(201);
    const mergedLine = await views();
    expect(mergedLine.workspace_path).toEqual(expect.any(String));
    expect(mergedLine.modules.length).toBeGreaterThan(0);

    for (const agent of ['criativo', 'po', 'arquiteto', 'dev:pedidos'])
      await get(AgentContextSchema, `/api/sessions/${sessionId}/agents/${agent}/context`);

    // Every event of the session as GET /events sends it, each by its kind's variant of the union.
    const events = await allEvents(forja, sessionId);
    for (const event of events)
      expectParses(SessionEventSchema, event, `event ${event.seq} ${event.type}`);
    const kinds = new Set(events.map((event) => event.type));
    expect(kinds.size).toBeGreaterThan(25);
  });
});

async function allEvents(
  forja: Forja,
  sessionId: string,
): Promise<Array<{ seq: number; type: string }>> {
  const events: Array<{ seq: number; type: string }> = [];
  for (;;) {
    const after = events.at(-1)?.seq ?? 0;
    const page = await requestJson(
      forja,
      'GET',
      `/api/sessions/${sessionId}/events?after=${after}&limit=500`,
    );
    expect(page.status).toBe(200);
    events.push(...page.body.events);
    if (page.body.events.length < 500) return events;
  }
}
