import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import type { RagSearchResult } from '../../memory/index.ts';
import { companionTestDependencies } from '../companions/testing/companion-test-dependencies.ts';
import {
  ANAMNESE_COMPETENCIES,
  ANAMNESE_KICKOFF,
  ANAMNESE_TRIAGE_LIMITS,
} from './anamnese-kickoff.ts';
import { assembleAnamneseContext } from './assemble-anamnese-context.ts';

const events = buildSessionEvents('s', [
  {
    type: 'chat.message',
    actor: 'user',
    payload: { v: 1, text: 'Escrevi a consulta SQL do relatório' },
  },
]);
const found: RagSearchResult = {
  hits: [
    {
      chunk_id: 'c#0',
      source_kind: 'doc',
      source_id: 'doc:docs/x.md',
      source: 'docs/x.md',
      text: 'testes de contrato',
      score: 0.7,
    },
  ],
  degraded: false,
  method: 'exact',
  parts: ['fts', 'exact'],
};

describe('the Anamnese context with RAG (record ADR 0101)', () => {
  it('searches for the competencies still without a profile — their names only, never a profile text', async () => {
    const dependencies = companionTestDependencies({ rag: async () => found });
    const profiled = [
      { competency: 'produto', summary: 'um texto livre que não pode virar consulta' },
      { competency: 'SQL' },
    ];
    const context = await assembleAnamneseContext(
      dependencies,
      { projectId: 'p' },
      events,
      profiled,
    );
    const missing = ANAMNESE_COMPETENCIES.filter(
      (competency) => !['Produto', 'SQL'].includes(competency),
    ).join(', ');
    expect(dependencies.searches).toEqual([
      { query: missing, k: ANAMNESE_TRIAGE_LIMITS.maxPromptEvents / 2 },
    ]);
    expect(context.missing).toBe(missing);
    expect(context.report.prompt).toContain('- [0.70] docs/x.md: testes de contrato');
    expect(context.report.prompt).not.toContain('texto livre');
  });

  it('does not search when every competency has a profile, and the context is the one without RAG', async () => {
    const everything = ANAMNESE_COMPETENCIES.map((competency) => ({ competency }));
    const withRag = companionTestDependencies({ rag: async () => found });
    const context = await assembleAnamneseContext(withRag, { projectId: 'p' }, events, everything);
    const withoutRag = await assembleAnamneseContext(
      companionTestDependencies({ rag: null }),
      { projectId: 'p' },
      events,
      everything,
    );
    expect(withRag.searches).toEqual([]);
    expect(context.report.prompt).toBe(withoutRag.report.prompt);
  });

  it('is byte-identical without hits, shows degraded: true when RAG fails, and falls back to the inline kickoff', async () => {
    const withoutRag = await assembleAnamneseContext(
      companionTestDependencies({ rag: null }),
      { projectId: 'p' },
      events,
      [],
    );
    const empty = await assembleAnamneseContext(
      companionTestDependencies({
        rag: async () => ({ hits: [], degraded: false, method: 'hnsw', parts: ['fts', 'hnsw'] }),
      }),
      { projectId: 'p' },
      events,
      [],
    );
    const failing = await assembleAnamneseContext(
      companionTestDependencies({
        rag: async () => ({
          hits: [],
          degraded: true,
          reason: 'index down',
          method: 'hnsw',
          parts: ['fts', 'hnsw'],
        }),
      }),
      { projectId: 'p' },
      events,
      [],
    );
    expect(empty.report.prompt).toBe(withoutRag.report.prompt);
    expect(failing.report.prompt).toContain('degraded: true (reason: index down)');
    expect(withoutRag.kickoff).toEqual({
      text: ANAMNESE_KICKOFF,
      source: 'inline',
      reason: 'flag_off',
    });
    const templated = await assembleAnamneseContext(
      companionTestDependencies({
        templates: { 'anamnese-kickoff': 'DO GRAFO' },
        graphTemplatesEnabled: true,
      }),
      { projectId: 'p' },
      events,
      [],
    );
    expect(templated.report.prompt).toContain('DO GRAFO');
  });
});
