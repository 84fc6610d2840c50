import { describe, expect, it } from 'vitest';
import { createPromptPins } from './prompt-pins.ts';

const kickoff = `## estado_tarefa\n${'Escreva o backlog: épicos, histórias e tarefas. '.repeat(8)}`;
const first = `## identidade\nVocê é o PO.\n\n${kickoff}\n\nNenhuma história ainda.`;
const later = `## identidade\nVocê é o PO.\n\n${kickoff}\n\nDuas histórias.`;

describe('createPromptPins', () => {
  it('keeps each lane its own pin', () => {
    const pins = createPromptPins();
    const po = { sessionId: 's1', agent: 'po' };
    expect(pins.pin(po, first)).toEqual({ system: first, update: null });
    expect(pins.pin({ sessionId: 's2', agent: 'po' }, later)).toEqual({
      system: later,
      update: null,
    });
    const sent = pins.pin(po, later);
    expect(sent.system).toBe(first);
    expect(sent.update).toContain('Duas histórias.');
  });

  it('forgets the least recently used lane past its bound, which then pins afresh', () => {
    const pins = createPromptPins({ maxLanes: 2 });
    const lane = (agent: string) => ({ sessionId: 's', agent });
    pins.pin(lane('a'), first);
    pins.pin(lane('b'), first);
    pins.pin(lane('a'), first);
    pins.pin(lane('c'), first);
    expect(pins.pin(lane('a'), later).system).toBe(first);
    expect(pins.pin(lane('b'), later)).toEqual({ system: later, update: null });
  });
});
