/** The agent's instruction patch (`agent_instructions`), read through the store. The lead's adapter implements it. */
export interface InstructionPatchSource {
  readPatch(projectId: string, agentSlug: string): Promise<string | null>;
}

/** Instruction templates kept in the graph; read only when `graph_instruction_templates_enabled` is on. */
export interface GraphInstructionTemplateSource {
  readInstructionTemplate(agentSlug: string): Promise<string | null>;
}

/** Where a source came from, which is also its place in the priority order (root lowest, db highest). */
export type InstructionPriorityKind = 'root' | 'dir' | 'graph' | 'db';

/** One instruction source; `id` is the name its header shows (`AGENTS.md`, `pkg/api/AGENTS.md`, ...). */
export interface InstructionSource {
  readonly id: string;
  readonly content: string;
  readonly priority_kind: InstructionPriorityKind;
  /** For a file: the directory it governs, relative to the workspace ('' for the root). */
  readonly directory?: string;
  /** For a file: whether the project marks it global (see GLOBAL_INSTRUCTION_MARKER), so every agent reads it. */
  readonly global?: boolean;
}

/** Why a source was left out. Every skip is named in the result; none is an exception. */
export type InstructionSkipReason =
  | 'not_utf8'
  | 'unreadable'
  | 'symlink_escapes_workspace'
  | 'too_large'
  | 'not_regular_file'
  | 'empty'
  | 'duplicate'
  | 'shadowed'
  | 'graph_source_failed';

/** A source left out, with the reason and, when there is one, the underlying error message. */
export interface InstructionSkip {
  readonly path: string;
  readonly reason: InstructionSkipReason;
  readonly detail?: string;
}

/** The ids of the two sources that are not files. */
export const DB_INSTRUCTIONS_ID = 'db:agent_instructions';
export const GRAPH_INSTRUCTIONS_ID = 'graph:instruction_template';
