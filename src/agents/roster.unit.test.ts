import { describe, expect, it } from 'vitest';
import { rosterProblems, type AgentDefinition } from './agent-definition.ts';
import { AGENT_ROSTER, AGENT_SLUGS, definitionOf, identityFrom, isAgentSlug } from './roster.ts';
import { revisorDefinition } from './testing/revisor/revisor-definition.ts';
import { AGENT_MODEL_KINDS } from '../gateway/providers/index.ts';
import { CONTEXT_MANAGER_AGENT } from './runtime/context-manager/summarize-history.ts';

/** The roster with one definition changed (`slug` names it). */
const withChanged = (slug: string, change: Partial<AgentDefinition>) =>
  AGENT_ROSTER.map((agent) => (agent.slug === slug ? { ...agent, ...change } : agent));

describe('the roster', () => {
  it('lists every agent once, in the line order, each with all of its parts', () => {
    expect(AGENT_SLUGS).toEqual(['criativo', 'po', 'arquiteto', 'dev', 'psicologo', 'anamnese']);
    expect(rosterProblems(AGENT_ROSTER)).toEqual([]);
  });

  it('refuses a definition that lacks a part, naming the agent and the rule', () => {
    expect(rosterProblems(withChanged('po', { identity: '  ' }))).toEqual([
      'po: identity must not be empty',
    ]);
    expect(rosterProblems(withChanged('arquiteto', { label: 'arquiteto' }))).toEqual([
      'arquiteto: label must be its name as people read it (capitalised), not the slug ("arquiteto")',
    ]);
    expect(rosterProblems(withChanged('po', { label: '' }))).toEqual([
      'po: label must not be empty',
    ]);
    expect(rosterProblems(withChanged('criativo', { identity: 'Você é\no Criativo' }))).toEqual([
      'criativo: identity must be one line',
    ]);
    expect(rosterProblems(withChanged('dev', { kickoff: '' }))).toEqual([
      'dev: kickoff must not be empty',
    ]);
    expect(rosterProblems(withChanged('po', { tools: [] }))).toEqual([
      'po: an agent that takes turns needs at least one tool to record its work',
    ]);
    expect(rosterProblems(withChanged('po', { tools: undefined as never }))).toEqual([
      'po: tools must be declared (a list of tool names)',
    ]);
    expect(rosterProblems(withChanged('po', { tools: ['Declare Backlog'] }))).toEqual([
      'po: tool "Declare Backlog" must be a snake_case name',
    ]);
    expect(rosterProblems(withChanged('anamnese', { handoffTargets: undefined as never }))).toEqual(
      ['anamnese: handoffTargets must be declared (a list of roster slugs, possibly empty)'],
    );
    expect(rosterProblems(withChanged('po', { handoffTargets: ['arquitetto'] }))).toEqual([
      'po: handoff target "arquitetto" is not in the roster',
      "arquiteto: no agent hands off to it, so it can never run (add it to an agent's handoffTargets, or remove it)",
    ]);
    expect(rosterProblems(withChanged('psicologo', { runs: undefined as never }))).toContain(
      'psicologo: runs must say how the agent runs and build it',
    );
    expect(rosterProblems([...AGENT_ROSTER, AGENT_ROSTER[1]!])).toEqual([
      'po: slug is listed twice',
    ]);
    expect(rosterProblems(withChanged('dev', { slug: 'Dev' }))[0]).toBe(
      'Dev: slug must be lower case words joined by hyphens',
    );
  });

  it('refuses an agent nothing hands off to, as the ux-designer was', () => {
    expect(rosterProblems([...AGENT_ROSTER, revisorDefinition])).toEqual([
      "revisor: no agent hands off to it, so it can never run (add it to an agent's handoffTargets, or remove it)",
    ]);
    const poHandsToIt = withChanged('po', { handoffTargets: ['arquiteto', 'revisor'] });
    expect(rosterProblems([...poHandsToIt, revisorDefinition])).toEqual([]);
  });

  it("gives each agent its own identity, per-module agents their family's", () => {
    const identity = identityFrom(AGENT_ROSTER);
    expect(identity('po')).toMatch(/^Você é o PO:/);
    expect(identity('dev:pedidos')).toBe(definitionOf('dev')!.identity);
    expect(identity('revisor')).toBe('');
    expect(identityFrom([...AGENT_ROSTER, revisorDefinition])('revisor')).toBe(
      revisorDefinition.identity,
    );
    expect(isAgentSlug('arquiteto')).toBe(true);
    expect(isAgentSlug('ux-designer')).toBe(false);
    expect(isAgentSlug('Criativo')).toBe(false);
  });

  it('gives every roster agent and the ContextManager a FORJA_MODEL_<AGENT> of its own', () => {
    expect([...AGENT_SLUGS, CONTEXT_MANAGER_AGENT].sort()).toEqual([...AGENT_MODEL_KINDS].sort());
  });
});
