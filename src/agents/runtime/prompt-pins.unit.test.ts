import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../../gateway/index.ts';
import { createPromptPins } from './prompt-pins.ts';

const kickoff = `## estado_tarefa\n${'Escreva o backlog: épicos, histórias e tarefas. '.repeat(8)}`;
const state = (text: string) => `## identidade\nVocê é o PO.\n\n${kickoff}\n\n${text}`;
const po = { sessionId: 's1', agent: 'po' };

const user = (content: string): ModelMessage => ({ role: 'user', content });
const answer = (content: string): ModelMessage => ({ role: 'assistant', content });

describe('createPromptPins', () => {
  it('keeps the first prompt and each update where it was sent, so every call repeats the one before', () => {
    const pins = createPromptPins();
    const first = pins.pin(po, state('Nenhuma história.')).place([user('oi')]);
    expect(first).toEqual({ system: state('Nenhuma história.'), messages: [user('oi')] });

    const history = [user('oi'), answer('Escrevo.'), user('e agora?')];
    const second = pins.pin(po, state('Duas histórias.'));
    expect(second.instructions).toContain('Duas histórias.');
    const sent = second.place(history);
    expect(sent.system).toBe(state('Nenhuma história.'));
    expect(sent.messages.slice(0, 3)).toEqual(history);
    expect(sent.messages[3]).toMatchObject({ role: 'user', contextUpdate: true });
    expect(sent.messages[3]?.content).toContain('Duas histórias.');

    // The next call: the update stays after the third message, the new messages come after it.
    const longer = [...history, answer('Feito.'), user('obrigado')];
    const third = pins.pin(po, state('Duas histórias.')).place(longer);
    expect(third.messages).toEqual([...sent.messages, answer('Feito.'), user('obrigado')]);
  });

  it('moves the pin when the history before an update changed (a compaction)', () => {
    const pins = createPromptPins();
    pins.pin(po, state('Nenhuma história.')).place([user('oi')]);
    pins.pin(po, state('Duas histórias.')).place([user('oi'), answer('Sim.'), user('e?')]);
    const compacted = [user('[resumo] oi, sim, e?'), answer('Feito.'), user('mais')];
    const sent = pins.pin(po, state('Duas histórias.')).place(compacted);
    expect(sent).toEqual({ system: state('Duas histórias.'), messages: compacted });
  });

  it('keeps each lane its own pin, and forgets the least recently used past its bound', () => {
    const pins = createPromptPins({ maxLanes: 2 });
    const lane = (agent: string) => ({ sessionId: 's', agent });
    for (const agent of ['a', 'b', 'a', 'c'])
      pins.pin(lane(agent), state('Nenhuma história.')).place([user('oi')]);
    expect(pins.pin(lane('a'), state('Duas.')).place([user('oi')]).system).toBe(
      state('Nenhuma história.'),
    );
    expect(pins.pin(lane('b'), state('Duas.')).place([user('oi')]).system).toBe(state('Duas.'));
  });
});
