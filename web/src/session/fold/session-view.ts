import type { PendingInstructions } from './apply-instructions.ts';
import type { LineEnd } from './apply-line-end.ts';
/** What the session page shows, folded from the session's events (see fold-session.ts). */

export type ChatItem =
  | { kind: 'user'; seq: number; text: string; to: string | null }
  | {
      kind: 'agent';
      seq: number;
      agent: string;
      text: string;
      tools: string[];
      /** The turn and the event it came from: Regenerate names the turn, a supersession the event (ADR 0220). */
      turnId: string;
      eventId: string;
      /** The partial answer of a turn the person stopped. */
      stopped?: boolean;
    }
  /** A turn the person stopped before it said anything. */
  | { kind: 'stopped'; seq: number; agent: string }
  /** The tools one turn used, folded into one row; `seq` is the first tool's. Each step opens to what it did. */
  | { kind: 'steps'; seq: number; agent: string; turnId: string | null; steps: Step[] }
  /** An agent joined; `greeting` is what it said as it joined, in the language recorded (null: no greeting). */
  | {
      kind: 'activated';
      seq: number;
      agent: string;
      greeting: { language: string; text: string } | null;
    }
  | { kind: 'handoff'; seq: number; handoffId: string }
  | {
      kind: 'failed';
      seq: number;
      agent: string;
      reason: string;
      message: string;
      turnId: string;
    }
  | {
      kind: 'budget';
      seq: number;
      agent: string;
      max: number;
      spent: number;
      reserved: number;
      requested: number;
    }
  | { kind: 'readiness'; seq: number }
  | { kind: 'brief'; seq: number; title: string; version: number }
  | { kind: 'limit'; seq: number; agent: string; ceiling: number }
  /** A proposed action; `action` is the fold's own record, which moves on when the person answers. */
  | {
      kind: 'action';
      seq: number;
      actionId: string;
      agent: string;
      tool: string;
      action: ActionView;
    }
  /** Placed after the last message the summary covers; `seq` is the `context.compacted` event's. */
  | {
      kind: 'compaction';
      seq: number;
      agent: string;
      throughSeq: number;
      summary: string;
      tokensBefore: number;
      tokensAfter: number;
    }
  | { kind: 'window'; seq: number; agent: string; reason: string; leftOut: number };

/**
 * One tool call of a turn; `commit` is what a `finish_task` committed (its `dev.task_finished`); `result` is
 * what the tool answered (a refused step's reason); `decision` the person's answer when the step waited for it.
 */
export type Step = {
  seq: number;
  tool: string;
  ok: boolean;
  commit?: string;
  result: string;
  detail: StepDetail;
  decision: ActionDecision | null;
};

/** What a step did, as it opens: a command with its output and exit status, a file written, or the raw text. */
export type StepDetail =
  | { kind: 'terminal'; command: string; output: string; exit: string | null; notes: string[] }
  /** `before`: the file's content the session last saw (its last write or read), null when it never saw it. */
  | { kind: 'write'; path: string; content: string; before: string | null }
  | { kind: 'text'; args: string; result: string };

/** Who answered a proposed action, and how (`reason`: a denial's, when the person gave one). */
export type ActionDecision = { verdict: 'approved' | 'denied'; by: string; reason: string | null };

export type BusinessRule = {
  eventId: string;
  seq: number;
  title: string;
  statement: string;
  origin: number[];
  /** Who recorded it: Criativo, or the agent the person told of a change. */
  recordedBy: string;
  /** The seq of the version this one revised; null for a rule as first recorded. */
  revises: number | null;
  /** The seq of the version that replaced this one; null while it stands. */
  supersededBy: number | null;
};

export type ProductBrief = {
  eventId: string;
  seq: number;
  /** 1, 2, 3 … : a new version after the PO's handoff was rejected; the current brief is the highest. */
  version: number;
  title: string;
  summary: string;
  problem: string;
  audience: string;
  goals: string[];
  outOfScope: string[];
  openQuestions: string[];
  ruleRefs: string[];
};

export type HandoffView = {
  id: string;
  from: string;
  to: string;
  status: string;
  reason: string | null;
  offeredSeq: number;
  /** The event id of the artifact handed over (the brief, for Criativo → PO). */
  artifactId: string | null;
  /** What the sender decided by itself since its last handoff: accepting the handoff accepts them. */
  decisions: HandoffDecisionView[];
};

/** A decision an agent made by itself (`record_decision`), listed on its next handoff. */
export type HandoffDecisionView = {
  seq: number;
  question: string;
  answer: string;
  reason: string;
  decidedBy: string;
};

/** An agent's question for the person (`ask_person`): its lane waits until it is answered. */
export type QuestionView = {
  id: string;
  seq: number;
  agent: string;
  question: string;
  options: string[];
  why: string | null;
  status: 'asked' | 'answered';
  answer: string | null;
  decideYourself: boolean;
};

export type ActionStatus = 'proposed' | 'approved' | 'denied' | 'completed';
export type ActionView = {
  id: string;
  seq: number;
  agent: string;
  tool: string;
  args: unknown;
  status: ActionStatus;
  toolCallId: string | null;
  /** The server's verdict on a risky terminal command (`action.proposed`'s `risk`); null when none was recorded. */
  risk: ActionRisk | null;
  /** The person's answer, once given. */
  decision: ActionDecision | null;
};
export type ActionRisk = { risky: boolean; reasons: Array<{ rule: string; why: string }> };

/** A turn that started and has not ended; `paused` while a proposed action waits for the person. */
export type OpenTurn = { turnId: string; agent: string; kind: string; paused: boolean };

export type BacklogItem = {
  id: string;
  seq: number;
  title: string;
  description: string;
  acceptanceCriteria: string[];
};
export type Epic = BacklogItem;
export type Story = BacklogItem & { epicId: string };
export type Task = BacklogItem & { storyId: string; module: string | null };
export type Backlog = { epics: Epic[]; stories: Story[]; tasks: Task[] };

/** One declaration of a versioned artifact (module map, contracts, …): the highest version is current, ties by seq. */
export type Declaration<Data> = { seq: number; version: number; data: Data };

export type ModuleDeclaration = {
  name: string;
  stack: string;
  responsibility: string;
  dependsOn: string[];
};
export type ModuleMap = { modules: ModuleDeclaration[] };

export type ContractItem = { tipo: string; assinatura: string; descricao: string | null };
export type ModuleContract = { modulo: string; expoe: ContractItem[] };
export type ModuleContracts = { contratos: ModuleContract[] };

export type DevBlock = { seq: number; modulo: string; falta: string };
/** A task a dev finished; `commit` is the commit its `dev.task_finished` recorded (null in a log without one). */
export type DevFinish = {
  seq: number;
  taskId: string | null;
  summary: string | null;
  commit: string | null;
};
export type DevProgress = {
  agent: string;
  module: string;
  activeSince: number | null;
  finished: DevFinish[];
  blocks: DevBlock[];
  lastSaid: string | null;
  failures: number;
};

/** A `dev.blocked` as the block loop has it (see apply-blocks.ts); `needsPerson` once the Arquiteto's turn left it open. */
export type LineBlock = {
  seq: number;
  agent: string;
  module: string;
  modulo: string;
  falta: string;
  /** What it is about, which says what resolves it: interface (contracts), check or task (module map), other (either). */
  kind: 'interface' | 'check' | 'task' | 'other';
  status: 'open' | 'resolved' | 'unblocked';
  arquitetoTurns: number;
  needsPerson: boolean;
};

/** Where an agent's lane stands: "idle" (nothing to do now) never means "done" (its part is finished). */
export type AgentStatus = 'working' | 'waiting' | 'blocked' | 'idle' | 'done';
export type AgentLane = { agent: string; status: AgentStatus };

export type SessionView = {
  lastSeq: number;
  chat: ChatItem[];
  /** Agents activated in the session, in activation order. */
  activeAgents: string[];
  /** Each active agent's lane and its status, in activation order. */
  lanes: AgentLane[];
  /** Who a message without an addressee goes to, as the server decides it: the agent last written to, unless one was activated since. */
  addressee: string | null;
  rules: BusinessRule[];
  brief: ProductBrief | null;
  readinessConfirmed: boolean;
  handoffs: Record<string, HandoffView>;
  /** Turns the person may retry (failed) or regenerate (the lane's last answer) now (ADR 0220). */
  controls: { retry: string[]; regenerate: string[] };
  actions: ActionView[];
  /** The agents' questions for the person, waiting or answered, in the order asked. */
  questions: QuestionView[];
  openTurns: OpenTurn[];
  backlog: Backlog;
  moduleMaps: Declaration<ModuleMap>[];
  contracts: Declaration<ModuleContracts>[];
  /** Other artifact types (project_image, module_routing, c4_diagram, future ones): every declaration, by type. */
  otherArtifacts: Record<string, Declaration<unknown>[]>;
  devs: DevProgress[];
  /** Dev agents whose `finish_task` is running its module's check now. */
  checking: string[];
  /** Every `dev.blocked` of the session and where it stands. */
  blocks: LineBlock[];
  /** The instruction files the line's devs brought into main, waiting for the person (ADR 0302). */
  instructions: PendingInstructions | null;
  /** The line completed on dev (`line.completed`) and, once the person merged it, the merge commit on main. */
  lineEnd: LineEnd;
  /** Events whose payload could not be read, kept visible. */
  unreadable: number;
};
