import type { InstructionsDraft } from './apply-instructions.ts';
import type { LineEnd } from './apply-line-end.ts';
import { type BlocksDraft, newBlocksDraft } from './apply-blocks.ts';
import type { LaneEnd } from './apply-turn-control.ts';
import type {
  ActionView,
  BusinessRule,
  ChatItem,
  Step,
  Declaration,
  DevProgress,
  Epic,
  HandoffDecisionView,
  HandoffView,
  QuestionView,
  ModuleContracts,
  ModuleMap,
  OpenTurn,
  ProductBrief,
  Story,
  Task,
} from './session-view.ts';

/** The mutable accumulator of one fold; never leaves fold-session.ts. */
export type SessionDraft = {
  lastSeq: number;
  chat: ChatItem[];
  activeAgents: string[];
  /** The last message's addressee and seq; and the seq each agent was activated at. */
  lastAddressed: { agent: string; seq: number } | null;
  activatedAt: Map<string, number>;
  /** Agents whose handoff (to them) was completed: their part is done. */
  completedHandoffs: Set<string>;
  rules: BusinessRule[];
  brief: ProductBrief | null;
  readinessConfirmed: boolean;
  handoffs: Record<string, HandoffView>;
  actions: Map<string, ActionView>;
  questions: Map<string, QuestionView>;
  /** Decisions each agent made by itself that no handoff of its own lists yet. */
  unlistedDecisions: Record<string, HandoffDecisionView[]>;
  openTurns: Map<string, OpenTurn>;
  epics: Map<string, Epic>;
  stories: Map<string, Story>;
  tasks: Map<string, Task>;
  moduleMaps: Declaration<ModuleMap>[];
  contracts: Declaration<ModuleContracts>[];
  otherArtifacts: Record<string, Declaration<unknown>[]>;
  devs: Map<string, DevProgress>;
  unreadable: number;
  lineBlocks: BlocksDraft;
  instructions: InstructionsDraft;
  /** `finish_task` calls a response made whose result is not in yet (toolCallId → agent): the check runs. */
  pendingChecks: Map<string, string>;
  /** The commit of each dev agent's last `dev.task_finished`, until its `finish_task` result (appended after it) takes it. */
  pendingCommits: Map<string, string>;
  /** The turn each tool call belongs to (from its `agent.response`), and each turn's steps row. */
  turnOfToolCall: Map<string, string>;
  stepsOfTurn: Map<string, { steps: Step[] }>;
  /** How each agent's last turn ended, and the turns that called tools (ADR 0220). */
  laneEnds: Map<string, LaneEnd>;
  toolTurns: Set<string>;
  /** The last content each agent's file had in the session (its last write or read), by `fileKey`. */
  knownFiles: Map<string, string>;
  lineEnd: LineEnd;
};

export function newSessionDraft(): SessionDraft {
  return {
    lastSeq: 0,
    chat: [],
    activeAgents: [],
    lastAddressed: null,
    activatedAt: new Map(),
    completedHandoffs: new Set(),
    rules: [],
    brief: null,
    readinessConfirmed: false,
    handoffs: {},
    actions: new Map(),
    questions: new Map(),
    unlistedDecisions: {},
    openTurns: new Map(),
    epics: new Map(),
    stories: new Map(),
    tasks: new Map(),
    turnOfToolCall: new Map(),
    stepsOfTurn: new Map(),
    moduleMaps: [],
    contracts: [],
    otherArtifacts: {},
    devs: new Map(),
    unreadable: 0,
    lineBlocks: newBlocksDraft(),
    instructions: null,
    pendingChecks: new Map(),
    laneEnds: new Map(),
    toolTurns: new Set(),
    pendingCommits: new Map(),
    knownFiles: new Map(),
    lineEnd: null,
  };
}

export const DEV_AGENT_PREFIX = 'dev:';

/** The progress record of a dev agent (`dev:<module>`), created on first sight. */
export function devProgress(draft: SessionDraft, agent: string): DevProgress {
  let progress = draft.devs.get(agent);
  if (progress === undefined) {
    progress = {
      agent,
      module: agent.slice(DEV_AGENT_PREFIX.length),
      activeSince: null,
      finished: [],
      blocks: [],
      lastSaid: null,
      failures: 0,
    };
    draft.devs.set(agent, progress);
  }
  return progress;
}

export const isDevAgent = (agent: string) =>
  agent.startsWith(DEV_AGENT_PREFIX) && agent.length > DEV_AGENT_PREFIX.length;
