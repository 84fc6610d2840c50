import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import { ragQueryForPsychologist, SESSION_END_REASONS } from '../../domain/memory/index.ts';
import type { RagHit, RagSearchResult } from '../../memory/index.ts';
import { companionTestDependencies } from '../companions/testing/companion-test-dependencies.ts';
import { assemblePsicologoContext } from './assemble-psicologo-context.ts';
import { PSICOLOGO_KICKOFF, PSICOLOGO_TRIAGE_LIMITS } from './psicologo-kickoff.ts';

const events = buildSessionEvents(
  'session-1',
  Array.from({ length: 50 }, (_, index) => ({
    type: 'chat.message',
    actor: 'user',
    payload: { v: 1, text: `mensagem ${index + 1}` },
  })),
);
const trigger = { projectId: 'project-1', sessionId: 'session-1', reason: 'blocked' as const };
const hit = (index: number): RagHit => ({
  chunk_id: `c${index}#0`,
  source_kind: 'artifact',
  source_id: `c${index}`,
  source: `artifact.business_rule #${index}`,
  text: `regra ${index}`,
  score: 1 - index / 100,
});
const answer = (result: RagSearchResult) => async () => result;

async function promptWith(options: Parameters<typeof companionTestDependencies>[0]) {
  const dependencies = companionTestDependencies(options);
  const context = await assemblePsicologoContext(dependencies, trigger, events);
  return { ...context, prompt: context.report.prompt, dependencies };
}

describe('the Psicólogo context with RAG (record ADR 0101)', () => {
  it('is byte-identical to the context without RAG when RAG finds nothing', async () => {
    const withoutRag = await promptWith({ rag: null });
    const empty = await promptWith({
      rag: answer({ hits: [], degraded: false, method: 'hnsw', parts: ['fts', 'hnsw'] }),
    });
    expect(empty.prompt).toBe(withoutRag.prompt);
    expect(withoutRag.prompt).toContain('#50 ');
  });

  it('when RAG fails, keeps the context without RAG and adds only the visible degraded: true line', async () => {
    const withoutRag = await promptWith({ rag: null });
    const failing = await promptWith({
      rag: answer({
        hits: [],
        degraded: true,
        reason: 'the embedder failed: connection refused',
        method: 'exact',
        parts: ['fts', 'exact'],
      }),
    });
    const degradedBlock =
      '\n\n## fragmentos relevantes (rag_search)\ndegraded: true (reason: the embedder failed: connection refused)';
    expect(failing.prompt).toContain(degradedBlock);
    expect(failing.prompt.replace(degradedBlock, '')).toBe(withoutRag.prompt);
    expect(failing.triage.window.events).toEqual(withoutRag.triage.window.events);
  });

  it('keeps the degraded: true line in the prompt even when every payload is as long and wide as allowed', async () => {
    const heavy = buildSessionEvents(
      'session-1',
      Array.from({ length: 60 }, () => ({
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: '🚀'.repeat(500) },
      })),
    );
    const dependencies = companionTestDependencies({
      rag: answer({
        hits: [],
        degraded: true,
        reason: `index down ${'x'.repeat(5000)}`,
        method: 'hnsw',
        parts: ['fts', 'hnsw'],
      }),
    });
    const { report } = await assemblePsicologoContext(dependencies, trigger, heavy);
    expect(report.prompt).toMatch(/degraded: true \(reason: index down x+ \[… truncado …\]\)/);
    expect(report.layers.find((layer) => layer.name === 'contexto_projeto')?.status).toBe('kept');
  });

  it('asks rag_search with the query of the classified reason only, for as many hits as fragment slots', async () => {
    for (const reason of SESSION_END_REASONS) {
      const dependencies = companionTestDependencies({
        rag: answer({ hits: [], degraded: false, method: 'hnsw', parts: ['fts', 'hnsw'] }),
      });
      await assemblePsicologoContext(dependencies, { ...trigger, reason }, events);
      expect(dependencies.searches).toEqual([
        { query: ragQueryForPsychologist(reason), k: PSICOLOGO_TRIAGE_LIMITS.maxPromptEvents / 2 },
      ]);
    }
  });

  it('gives fragments slots taken from the oldest recent events, never more items in all', async () => {
    const { triage, prompt } = await promptWith({
      rag: answer({
        hits: [hit(1), hit(2), hit(3)],
        degraded: false,
        method: 'hnsw',
        parts: ['fts', 'hnsw'],
      }),
    });
    expect(triage.window.fragments).toHaveLength(3);
    expect(triage.window.events).toHaveLength(PSICOLOGO_TRIAGE_LIMITS.maxPromptEvents - 3);
    expect(triage.window.events.at(-1)?.seq).toBe(50);
    expect(prompt).toContain('- [0.99] artifact.business_rule #1: regra 1');
    expect(prompt).not.toContain('#13 ');
  });
});

describe('the Psicólogo kickoff: template first, inline text as fallback', () => {
  const template = { 'psicologo-kickoff': 'KICKOFF DO GRAFO v2' };

  it('uses the inline text when graph_templates_enabled is off (the default), without asking the graph', async () => {
    const { prompt, kickoff, dependencies } = await promptWith({ templates: template });
    expect(kickoff).toEqual({ text: PSICOLOGO_KICKOFF, source: 'inline', reason: 'flag_off' });
    expect(prompt).toContain(PSICOLOGO_KICKOFF);
    expect(dependencies.templateReads).toEqual([]);
  });

  it('uses the current template when the flag is on', async () => {
    const { prompt, kickoff } = await promptWith({
      templates: template,
      graphTemplatesEnabled: true,
    });
    expect(kickoff).toEqual({ text: 'KICKOFF DO GRAFO v2', source: 'graph', version: 2 });
    expect(prompt).toContain('KICKOFF DO GRAFO v2');
    expect(prompt).not.toContain(PSICOLOGO_KICKOFF);
  });

  it('falls back to the inline text when the template was never seeded or the graph fails', async () => {
    expect((await promptWith({ templates: {}, graphTemplatesEnabled: true })).kickoff).toEqual({
      text: PSICOLOGO_KICKOFF,
      source: 'inline',
      reason: 'not_seeded',
    });
    const failed = await promptWith({
      templates: new Error('graph is unavailable'),
      graphTemplatesEnabled: true,
    });
    expect(failed.kickoff).toEqual({
      text: PSICOLOGO_KICKOFF,
      source: 'inline',
      reason: 'graph_failed',
      detail: 'graph is unavailable',
    });
    expect(failed.prompt).toBe((await promptWith({})).prompt);
  });
});
