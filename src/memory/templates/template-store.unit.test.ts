import { describe, expect, it } from 'vitest';
import { createInMemoryGraphStore } from '../graph/in-memory-graph-store.ts';
import { resolveTemplate } from './resolve-template.ts';
import { readCurrentTemplate, seedTemplate } from './template-store.ts';
import { createGraphInstructionTemplateSource } from './graph-instruction-template-source.ts';

describe('versioned templates in the graph', () => {
  it('creates v1, leaves the same body alone, makes a new body the next version, and reads the highest', async () => {
    const graph = createInMemoryGraphStore();
    expect(await seedTemplate(graph, 'psicologo-kickoff', 'um')).toEqual({
      outcome: 'created',
      name: 'psicologo-kickoff',
      version: 1,
    });
    expect(await seedTemplate(graph, 'psicologo-kickoff', 'um')).toEqual({
      outcome: 'unchanged',
      name: 'psicologo-kickoff',
      version: 1,
    });
    expect(await seedTemplate(graph, 'psicologo-kickoff', 'dois')).toEqual({
      outcome: 'new_version',
      name: 'psicologo-kickoff',
      version: 2,
    });
    expect(await seedTemplate(graph, 'psicologo-kickoff', 'um')).toEqual({
      outcome: 'new_version',
      name: 'psicologo-kickoff',
      version: 3,
    });
    expect(await readCurrentTemplate(graph, 'psicologo-kickoff')).toEqual({
      name: 'psicologo-kickoff',
      version: 3,
      body: 'um',
    });
    expect(
      (await graph.findNodes('PromptTemplate', { name: 'psicologo-kickoff' })).map(
        (node) => node.key,
      ),
    ).toEqual(['psicologo-kickoff@1', 'psicologo-kickoff@2', 'psicologo-kickoff@3']);
  });

  it('gives InstructionFiles the current <slug>-instructions template, or null', async () => {
    const graph = createInMemoryGraphStore();
    await seedTemplate(graph, 'po-instructions', 'Critérios verificáveis primeiro.');
    const source = createGraphInstructionTemplateSource((name) => readCurrentTemplate(graph, name));
    expect(await source.readInstructionTemplate('po')).toBe('Critérios verificáveis primeiro.');
    expect(await source.readInstructionTemplate('arquiteto')).toBeNull();
  });
});

describe('resolveTemplate', () => {
  const read = async (name: string) =>
    name === 'seeded' ? { name, version: 4, body: 'do grafo' } : null;

  it('tries the template only with the flag on, and falls back to the inline text otherwise', async () => {
    expect(
      await resolveTemplate({ enabled: false, name: 'seeded', inline: 'inline', read }),
    ).toEqual({ text: 'inline', source: 'inline', reason: 'flag_off' });
    expect(
      await resolveTemplate({ enabled: true, name: 'seeded', inline: 'inline', read }),
    ).toEqual({ text: 'do grafo', source: 'graph', version: 4 });
    expect(await resolveTemplate({ enabled: true, name: 'other', inline: 'inline', read })).toEqual(
      { text: 'inline', source: 'inline', reason: 'not_seeded' },
    );
    expect(
      await resolveTemplate({
        enabled: true,
        name: 'x',
        inline: 'inline',
        read: async () => Promise.reject(new Error('down')),
      }),
    ).toEqual({ text: 'inline', source: 'inline', reason: 'graph_failed', detail: 'down' });
  });
});
