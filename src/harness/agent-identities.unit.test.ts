import { describe, expect, it } from 'vitest';
import { AGENT_IDENTITIES, AGENT_SLUGS, isAgentSlug } from './agent-identities.ts';

describe('agent identities', () => {
  it('has exactly the roster, one single line each', () => {
    expect([...AGENT_SLUGS]).toEqual([
      'criativo',
      'po',
      'arquiteto',
      'dev',
      'psicologo',
      'anamnese',
      'ux-designer',
    ]);
    expect(Object.keys(AGENT_IDENTITIES)).toEqual([...AGENT_SLUGS]);
    for (const identity of Object.values(AGENT_IDENTITIES)) {
      expect(identity.trim()).not.toBe('');
      expect(identity).not.toContain('\n');
    }
  });

  it('recognises roster slugs only', () => {
    expect(isAgentSlug('ux-designer')).toBe(true);
    expect(isAgentSlug('Criativo')).toBe(false);
    expect(isAgentSlug('ux_designer')).toBe(false);
  });
});
