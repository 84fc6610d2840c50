import type { ArquitetoDependencies } from './arquiteto/arquiteto-dependencies.ts';
import type { CompanionDependencies } from './companions/companion-dependencies.ts';
import type { SessionEndCompanion } from './companions/session-end-companion.ts';
import type { DevDependencies } from './dev/dev-dependencies.ts';
import type { PromptSources } from './runtime/build-system-prompt.ts';
import type { LoopAgent } from './runtime/tool-loop.ts';

/** What the roster's agents are built from (`src/composition.ts` passes the real parts). */
export interface RosterDependencies {
  prompts: PromptSources;
  /** The production line's parts: database, event log, workspaces, terminal, RAG. */
  line: ArquitetoDependencies & DevDependencies;
  companions: CompanionDependencies;
  flags: { readonly psychologist_enabled: boolean; readonly anamnese_enabled: boolean };
}

/** How an agent runs: turns in its own lane, turns per module (`dev:<module>`), or once after a session ends. */
export type AgentRuns =
  | { readonly kind: 'turns'; create(dependencies: RosterDependencies): LoopAgent }
  | {
      readonly kind: 'turns-per-module';
      /** The agent of a slug `<slug>:<module>`, or null when the slug is not one of its. */
      create(dependencies: RosterDependencies): (slug: string) => LoopAgent | null;
    }
  | {
      readonly kind: 'after-session-end';
      create(dependencies: RosterDependencies): SessionEndCompanion;
    };

/**
 * One agent of the roster, declared in its folder (`src/agents/<slug>/<slug>-definition.ts`) and listed once
 * in `src/agents/roster.ts`. `rosterProblems` (run by a unit test) refuses a definition that lacks any part.
 */
export interface AgentDefinition {
  /** The wire name: lower case and hyphens (`ux-designer`); a per-module agent's lanes are `<slug>:<module>`. */
  readonly slug: string;
  /** How people see it named (`Arquiteto`, `PO`): never the raw slug. */
  readonly label: string;
  /** The `identidade` layer of its prompt: one line, Portuguese, as the product speaks. */
  readonly identity: string;
  /** Its task when it starts (`estado_tarefa`); a per-module agent's, shown for an example module. */
  readonly kickoff: string;
  /** The names of the tools it may call (a turn-taking agent has at least one). */
  readonly tools: readonly string[];
  /** The roster agents it hands its work on to (none for the last of the line and the companions). */
  readonly handoffTargets: readonly string[];
  readonly runs: AgentRuns;
}

const SLUG = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const TOOL_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * What is wrong with a roster, one line per problem naming the agent and the rule; [] when nothing is. The
 * first agent is the entry (the person starts it); every other turn-taking agent must be some agent's handoff
 * target, since an agent runs only once an accepted handoff addresses it.
 */
export function rosterProblems(roster: readonly AgentDefinition[]): string[] {
  const problems: string[] = [];
  const slugs = new Set<string>();
  for (const agent of roster) {
    const name = agent.slug || '(no slug)';
    const problem = (rule: string) => problems.push(`${name}: ${rule}`);
    if (!SLUG.test(agent.slug)) problem('slug must be lower case words joined by hyphens');
    if (slugs.has(agent.slug)) problem('slug is listed twice');
    slugs.add(agent.slug);
    const label = agent.label?.trim() ?? '';
    if (label === '') problem('label must not be empty');
    else if (label === agent.slug || !/^\p{Lu}/u.test(label))
      problem(`label must be its name as people read it (capitalised), not the slug ("${label}")`);
    const identity = agent.identity?.trim() ?? '';
    if (identity === '') problem('identity must not be empty');
    if (agent.identity?.includes('\n')) problem('identity must be one line');
    if ((agent.kickoff?.trim() ?? '') === '') problem('kickoff must not be empty');
    if (!Array.isArray(agent.tools)) problem('tools must be declared (a list of tool names)');
    else {
      for (const tool of agent.tools)
        if (!TOOL_NAME.test(tool)) problem(`tool "${tool}" must be a snake_case name`);
      if (new Set(agent.tools).size !== agent.tools.length) problem('tools lists a tool twice');
      if (agent.runs?.kind !== 'after-session-end' && agent.tools.length === 0)
        problem('an agent that takes turns needs at least one tool to record its work');
    }
    if (!Array.isArray(agent.handoffTargets))
      problem('handoffTargets must be declared (a list of roster slugs, possibly empty)');
    if (agent.runs === undefined || typeof agent.runs.create !== 'function')
      problem('runs must say how the agent runs and build it');
  }
  const targeted = new Set<string>();
  for (const agent of roster) {
    for (const target of Array.isArray(agent.handoffTargets) ? agent.handoffTargets : []) {
      targeted.add(target);
      if (target === agent.slug) problems.push(`${agent.slug}: cannot hand off to itself`);
      else if (!slugs.has(target))
        problems.push(`${agent.slug}: handoff target "${target}" is not in the roster`);
    }
  }
  for (const agent of roster.slice(1)) {
    if (agent.runs?.kind === 'after-session-end' || targeted.has(agent.slug)) continue;
    problems.push(
      `${agent.slug}: no agent hands off to it, so it can never run (add it to an agent's handoffTargets, or remove it)`,
    );
  }
  return problems;
}
