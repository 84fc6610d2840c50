import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model-provider.ts';
import { matchExpectation } from './match-expectation.ts';

const request: ModelRequest = {
  agent: 'criativo',
  system: '## identidade\nVocê é o Criativo.',
  messages: [{ role: 'user', content: '[#3] E o preço?' }],
  tools: [],
  maxOutputTokens: 1024,
};

describe('matchExpectation, system', () => {
  it('finds what the model is told in the pinned prompt or in the update after the history', () => {
    const update = {
      role: 'user' as const,
      content: '### regra #5\nPreço fixo.',
      contextUpdate: true as const,
    };
    const updated = { ...request, messages: [...request.messages, update] };
    expect(
      matchExpectation({ system: ['Você é o Criativo.', 'Preço fixo.'] }, updated),
    ).toBeUndefined();
  });

  it('does not take an ordinary message for the system prompt', () => {
    const said = { ...request, messages: [{ role: 'user' as const, content: 'Preço fixo.' }] };
    expect(matchExpectation({ system: ['Preço fixo.'] }, said)).toMatchObject({ check: 'system' });
  });
});
