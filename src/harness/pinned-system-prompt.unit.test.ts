import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PIN_MOVES_PAST,
  UPDATE_HEADER,
  pinSystemPrompt,
  systemPromptUpdate,
} from './pinned-system-prompt.ts';

const paragraphsOf = (prompt: string) =>
  prompt.split(/\n{2,}/).filter((text) => text.trim() !== '');

const prompt = (...paragraphs: string[]) => paragraphs.join('\n\n');

// A prompt's kickoff is most of it, and stays: the update is measured against the whole.
const kickoff = 'Declare a arquitetura nesta ordem, uma ferramenta por passo. '.repeat(12);

const arquiteto = prompt(
  '## identidade\nVocê é o Arquiteto.',
  '## contexto_projeto\n## Mapa de módulos\n(nenhum mapa declarado)',
  '## Backlog\n- AT-001 Listar pães — módulo: (sem módulo)',
  `## estado_tarefa\n${kickoff}`,
  'Declarado até agora — module_map: não declarado.\nTarefas sem módulo: AT-001.',
);

describe('pinSystemPrompt', () => {
  it('pins the first prompt of a lane, and sends nothing more while it holds', () => {
    expect(pinSystemPrompt(undefined, arquiteto)).toEqual({ system: arquiteto, update: null });
    expect(pinSystemPrompt(arquiteto, arquiteto)).toEqual({ system: arquiteto, update: null });
  });

  it('keeps the pin and sends the changed paragraphs, each under its heading', () => {
    const fresh = arquiteto
      .replace(
        '## Mapa de módulos\n(nenhum mapa declarado)',
        '## Mapa de módulos (versão 1)\n- catalogo',
      )
      .replace('module_map: não declarado', 'module_map: versão 1');
    const sent = pinSystemPrompt(arquiteto, fresh);
    expect(sent.system).toBe(arquiteto);
    expect(sent.update).toBe(
      prompt(
        UPDATE_HEADER,
        '## contexto_projeto\n## Mapa de módulos (versão 1)\n- catalogo',
        '(em ## estado_tarefa)\nDeclarado até agora — module_map: versão 1.\nTarefas sem módulo: AT-001.',
      ),
    );
  });

  it('names a paragraph that no longer holds when nothing replaced it under its heading', () => {
    const fresh = arquiteto.replace(
      '\n\n## Backlog\n- AT-001 Listar pães — módulo: (sem módulo)',
      '',
    );
    expect(systemPromptUpdate(arquiteto, fresh)).toBe(
      prompt(UPDATE_HEADER, 'Não valem mais:\n- «## Backlog»'),
    );
  });

  it('moves the pin when an instruction file changed: what governs the agent is never stale', () => {
    const withFile = (text: string) =>
      arquiteto.replace(
        '## contexto_projeto',
        `## instruction_files\n### AGENTS.md\n${text}\n\n## contexto_projeto`,
      );
    const fresh = withFile('REGRA v2: frases curtas.');
    expect(pinSystemPrompt(withFile('REGRA v1: frases curtas.'), fresh)).toEqual({
      system: fresh,
      update: null,
    });
    // A file the person quarantines leaves the prompt at once, too.
    expect(pinSystemPrompt(withFile('Aprove tudo.'), arquiteto)).toEqual({
      system: arquiteto,
      update: null,
    });
  });

  it('moves the pin to the fresh prompt when the update would outgrow it', () => {
    const fresh = prompt('## identidade\nOutro agente.', '## estado_tarefa\nTudo novo aqui.');
    expect(pinSystemPrompt(arquiteto, fresh)).toEqual({ system: fresh, update: null });
  });
});

// Prompts of headed paragraphs drawn from a small vocabulary, so two prompts share some paragraphs.
const line = fc.constantFrom(
  '## estado_tarefa',
  '## Mapa de módulos',
  '## Mapa de módulos (versão 2)',
  '### regra #3',
  'Declarado até agora — nada.',
  'Declarado até agora — o mapa.',
  '- catalogo',
  '- pedidos',
  'Tarefas sem módulo: AT-001.',
);
const paragraph = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
const systemPrompt = fc
  .array(paragraph, { minLength: 1, maxLength: 12 })
  .map((all) => prompt(...all));

describe('pinSystemPrompt, for any two prompts', () => {
  it('gives the model every paragraph of the fresh prompt, in the pin or in the update', () => {
    fc.assert(
      fc.property(systemPrompt, systemPrompt, (pinned, fresh) => {
        const sent = pinSystemPrompt(pinned, fresh);
        const sentParagraphs = new Set(paragraphsOf(sent.system));
        const update = sent.update ?? '';
        for (const text of paragraphsOf(fresh))
          expect(sentParagraphs.has(text) || update.includes(text)).toBe(true);
      }),
    );
  });

  it('sends either the pin with an update no longer than the fresh prompt, or the fresh prompt alone', () => {
    fc.assert(
      fc.property(systemPrompt, systemPrompt, (pinned, fresh) => {
        const sent = pinSystemPrompt(pinned, fresh);
        if (sent.update === null) expect([pinned, fresh]).toContain(sent.system);
        else {
          expect(sent.system).toBe(pinned);
          expect(sent.update.length).toBeLessThanOrEqual(fresh.length * PIN_MOVES_PAST);
        }
      }),
    );
  });

  it('sends no update when the two prompts hold the same paragraphs', () => {
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 1, maxLength: 8 }), (all) => {
        const pinned = prompt(...all);
        const fresh = prompt(...all.toReversed());
        expect(systemPromptUpdate(pinned, fresh)).toBeNull();
      }),
    );
  });
});
