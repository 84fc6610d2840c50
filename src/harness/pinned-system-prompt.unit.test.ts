import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PIN_MOVES_PAST,
  type PinState,
  UPDATE_HEADER,
  pinSystemPrompt,
  systemPromptUpdate,
} from './pinned-system-prompt.ts';

const paragraphsOf = (prompt: string) =>
  prompt.split(/\n{2,}/).filter((text) => text.trim() !== '');

const prompt = (...paragraphs: string[]) => paragraphs.join('\n\n');

/** A pin made from `system` with no update sent yet. */
const pinOf = (system: string): PinState => ({ system, known: system, updatesLength: 0 });

// A prompt's kickoff is most of it, and stays: the updates are measured against the whole.
const kickoff = 'Declare a arquitetura nesta ordem, uma ferramenta por passo. '.repeat(12);

const arquiteto = prompt(
  '## identidade\nVocê é o Arquiteto.',
  '## contexto_projeto\n## Mapa de módulos\n(nenhum mapa declarado)',
  '## Backlog\n- AT-001 Listar pães — módulo: (sem módulo)',
  `## estado_tarefa\n${kickoff}`,
  'Declarado até agora — module_map: não declarado.\nTarefas sem módulo: AT-001.',
);

const declared = arquiteto
  .replace(
    '## Mapa de módulos\n(nenhum mapa declarado)',
    '## Mapa de módulos (versão 1)\n- catalogo',
  )
  .replace('module_map: não declarado', 'module_map: versão 1');

describe('pinSystemPrompt', () => {
  it('pins the first prompt of a lane, and sends nothing more while it holds', () => {
    expect(pinSystemPrompt(undefined, arquiteto)).toEqual({
      state: pinOf(arquiteto),
      update: null,
      moved: true,
    });
    expect(pinSystemPrompt(pinOf(arquiteto), arquiteto)).toEqual({
      state: pinOf(arquiteto),
      update: null,
      moved: false,
    });
  });

  it('keeps the pin and sends the changed paragraphs, each under its heading', () => {
    const step = pinSystemPrompt(pinOf(arquiteto), declared);
    const update = prompt(
      UPDATE_HEADER,
      '## contexto_projeto\n## Mapa de módulos (versão 1)\n- catalogo',
      '(em ## estado_tarefa)\nDeclarado até agora — module_map: versão 1.\nTarefas sem módulo: AT-001.',
    );
    expect(step).toEqual({
      state: { system: arquiteto, known: declared, updatesLength: update.length },
      update,
      moved: false,
    });
  });

  it('sends only what changed since the last update: the earlier ones stay in the history', () => {
    const first = pinSystemPrompt(pinOf(arquiteto), declared);
    const assigned = declared.replace(
      'Tarefas sem módulo: AT-001.',
      'Tarefas sem módulo: (nenhuma).',
    );
    const second = pinSystemPrompt(first.state, assigned);
    expect(second.update).toBe(
      prompt(
        UPDATE_HEADER,
        '(em ## estado_tarefa)\nDeclarado até agora — module_map: versão 1.\nTarefas sem módulo: (nenhuma).',
      ),
    );
    expect(second.state.system).toBe(arquiteto);
    expect(pinSystemPrompt(second.state, assigned)).toMatchObject({ update: null, moved: false });
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
    expect(pinSystemPrompt(pinOf(withFile('REGRA v1: frases curtas.')), fresh)).toMatchObject({
      state: pinOf(fresh),
      update: null,
      moved: true,
    });
    // A file the person quarantines leaves the prompt at once, too.
    expect(pinSystemPrompt(pinOf(withFile('Aprove tudo.')), arquiteto)).toMatchObject({
      state: pinOf(arquiteto),
      moved: true,
    });
  });

  it('moves the pin to the fresh prompt when the updates would outgrow it', () => {
    const fresh = prompt('## identidade\nVocê é o Arquiteto.', '## estado_tarefa\nTudo novo aqui.');
    expect(pinSystemPrompt(pinOf(arquiteto), fresh)).toMatchObject({
      state: pinOf(fresh),
      moved: true,
    });
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

describe('pinSystemPrompt, over any run of prompts', () => {
  it('gives the model every paragraph of each fresh prompt, in the pin or in an update sent since', () => {
    fc.assert(
      fc.property(fc.array(systemPrompt, { minLength: 1, maxLength: 8 }), (prompts) => {
        let pin: PinState | undefined;
        let updates: string[] = [];
        for (const fresh of prompts) {
          const step = pinSystemPrompt(pin, fresh);
          pin = step.state;
          updates = step.moved ? [] : [...updates, ...(step.update === null ? [] : [step.update])];
          const pinned = new Set(paragraphsOf(pin.system));
          for (const text of paragraphsOf(fresh))
            expect(pinned.has(text) || updates.some((update) => update.includes(text))).toBe(true);
        }
      }),
    );
  });

  it('keeps the updates since a pin within the fresh prompt, or moves the pin to it', () => {
    fc.assert(
      fc.property(fc.array(systemPrompt, { minLength: 1, maxLength: 8 }), (prompts) => {
        let pin: PinState | undefined;
        for (const fresh of prompts) {
          const step = pinSystemPrompt(pin, fresh);
          if (step.moved) expect(step.state).toEqual(pinOf(fresh));
          else {
            expect(step.state.system).toBe(pin?.system);
            expect(step.state.updatesLength).toBeLessThanOrEqual(fresh.length * PIN_MOVES_PAST);
          }
          pin = step.state;
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
