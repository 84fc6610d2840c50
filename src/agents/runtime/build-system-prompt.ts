import { existsSync } from 'node:fs';
import {
  assemblePrompt,
  instructionBudgetForWindow,
  instructionUnits,
  type AssemblyReport,
  type InstructionFiles,
  type PromptUnit,
  type Tokenizer,
} from '../../harness/index.ts';
import type { InstructionFileDigest } from '../../domain/line/index.ts';
import { withoutQuarantined } from './instruction-quarantine.ts';

/** The layer texts an agent contributes; the harness decides what fits (record ADR 0006). */
export interface AgentPromptParts {
  /** contexto_projeto: what the agent must know of the project (brief, map, contracts…). */
  projectContext?: string;
  /** regras_negocio: the session's business rules, oldest first. */
  businessRules?: readonly PromptUnit[];
  /** estado_tarefa: the agent's kickoff and where its task stands. */
  taskState: string;
  /**
   * The directory the agent works in, relative to the workspace ('' for the root): it gets the instruction
   * files on the path from the root to there. Absent (every agent but a dev): the root and global files.
   */
  instructionScope?: string;
}

export interface PromptSources {
  /** The `identidade` line of an agent (`identityFrom(AGENT_ROSTER)`: each agent declares its own). */
  identity: (agent: string) => string;
  instructionFiles: InstructionFiles;
  /** The project's workspace, whose AGENTS.md files are instruction sources, when it exists. */
  workspaceDirectory: (projectId: string) => string;
  /**
   * The dev-written instruction files of the project the person has not accepted (ADR 0302): left out of
   * every prompt. Absent: none.
   */
  quarantinedInstructions?: (projectId: string) => Promise<readonly InstructionFileDigest[]>;
  /** The server's tokenizer (FORJA_TOKENIZER, or the model's default); the bytes/4 estimate when absent. */
  tokenizer?: Tokenizer;
  /**
   * The model's context window in tokens, or the window of each agent (agents may use different models): the
   * instruction layer's budget follows it (instructionBudgetForWindow).
   */
  contextWindowTokens?: number | ((agent: string) => number);
}

/**
 * Assembles an agent's system prompt through the harness: identity, instruction files (workspace AGENTS.md
 * files and the agent's database patches), project context, business rules and task state, each within its
 * budget. No agent builds its own prompt (docs/records.md: agents run only inside the harness).
 */
export async function buildSystemPrompt(
  sources: PromptSources,
  agent: string,
  projectId: string,
  parts: AgentPromptParts,
): Promise<AssemblyReport> {
  const workspaceDir = sources.workspaceDirectory(projectId);
  const scope = parts.instructionScope === undefined ? {} : { scope: parts.instructionScope };
  // The full slug: a dev reads the patch of `dev` and then the one stored for `dev:<module>`.
  const loaded = existsSync(workspaceDir)
    ? await sources.instructionFiles.load({ workspaceDir, projectId, agent, ...scope })
    : { sources: [] };
  const quarantined = (await sources.quarantinedInstructions?.(projectId)) ?? [];
  const windowTokens =
    typeof sources.contextWindowTokens === 'function'
      ? sources.contextWindowTokens(agent)
      : sources.contextWindowTokens;
  const report = assemblePrompt(
    {
      agent,
      identidade: sources.identity(agent),
      instruction_files: instructionUnits(withoutQuarantined(loaded.sources, quarantined)),
      contexto_projeto: parts.projectContext ?? '',
      regras_negocio: parts.businessRules ?? [],
      estado_tarefa: parts.taskState,
    },
    {
      ...(sources.tokenizer === undefined ? {} : { tokenizer: sources.tokenizer }),
      ...(windowTokens === undefined
        ? {}
        : { budgets: { instruction_files: instructionBudgetForWindow(windowTokens) } }),
    },
  );
  const byAgent = assemblies.get(sources) ?? new Map<string, AssemblyReport>();
  byAgent.set(agent, report);
  assemblies.set(sources, byAgent);
  return report;
}

// The latest assembly per agent, per set of sources (one per Forja): how `forja context --session` shows layers.
const assemblies = new WeakMap<PromptSources, Map<string, AssemblyReport>>();

/** The layer report of the prompt `agent` was last assembled with, when `prompt` is that prompt. */
export function lastAssemblyOf(
  sources: PromptSources,
  agent: string,
  prompt: string,
): AssemblyReport | null {
  const report = assemblies.get(sources)?.get(agent);
  return report !== undefined && report.prompt === prompt ? report : null;
}

/** The session's business rules as prompt units (oldest first, so the oldest are dropped first). */
export function businessRuleUnits(
  rules: ReadonlyArray<{ seq: number; title: string; statement: string }>,
): PromptUnit[] {
  return rules.map((rule) => ({
    id: `regra #${rule.seq}`,
    text: `${rule.title}: ${rule.statement}`,
  }));
}
