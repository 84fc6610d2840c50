import type { IdleLane } from '../../api/types.ts';
import type { SessionView } from './session-view.ts';

/** One thing that waits for the person, with what they act on. */
export type NeedsYouItem =
  | { kind: 'handoff'; seq: number; handoffId: string; from: string; to: string }
  | { kind: 'action'; seq: number; actionId: string; agent: string; tool: string; risky: boolean }
  | { kind: 'block'; seq: number; agent: string; modulo: string; falta: string }
  | { kind: 'failed'; seq: number; agent: string; reason: string }
  | { kind: 'instructions'; seq: number; paths: string[] }
  /** A dev lane idle while its module is unfinished (the server's rule): the person may nudge it. */
  | { kind: 'idle'; seq: number; agent: string; unfinished: string[] }
  /** The line completed on dev and waits for the person's "Merge into main". */
  | { kind: 'merge'; seq: number; devCommit: string }
  | {
      kind: 'question';
      seq: number;
      questionId: string;
      agent: string;
      question: string;
      options: string[];
      why: string | null;
    };

type NeedsYouSource = Pick<SessionView, 'actions' | 'handoffs' | 'chat' | 'blocks' | 'questions'> &
  Partial<Pick<SessionView, 'instructions' | 'lineEnd' | 'lastSeq'>> & {
    /** `GET /api/sessions/:id/idle-lanes`, read after the log last moved; listed as of the last event. */
    idleLanes?: readonly IdleLane[];
  };

/**
 * What waits for the person, oldest first: handoffs to accept, actions to approve, agents' questions, blocks
 * the Arquiteto's turn did not resolve, failed turns the agent has not answered since, instruction files the
 * line's devs brought into main that the person has not accepted, dev lanes idle with their module unfinished,
 * a completed line to merge into main.
 */
export function needsYou(view: NeedsYouSource): NeedsYouItem[] {
  const items: NeedsYouItem[] = [];
  for (const handoff of Object.values(view.handoffs))
    if (handoff.status === 'offered')
      items.push({
        kind: 'handoff',
        seq: handoff.offeredSeq,
        handoffId: handoff.id,
        from: handoff.from,
        to: handoff.to,
      });
  for (const action of view.actions)
    if (action.status === 'proposed')
      items.push({
        kind: 'action',
        seq: action.seq,
        actionId: action.id,
        agent: action.agent,
        tool: action.tool,
        risky: action.risk?.risky === true,
      });
  for (const question of view.questions)
    if (question.status === 'asked')
      items.push({
        kind: 'question',
        seq: question.seq,
        questionId: question.id,
        agent: question.agent,
        question: question.question,
        options: question.options,
        why: question.why,
      });
  for (const block of view.blocks)
    if (block.status === 'open' && block.needsPerson)
      items.push({
        kind: 'block',
        seq: block.seq,
        agent: block.agent,
        modulo: block.modulo,
        falta: block.falta,
      });
  const lastAnswer = new Map<string, number>();
  for (const item of view.chat) if (item.kind === 'agent') lastAnswer.set(item.agent, item.seq);
  for (const item of view.chat)
    if (item.kind === 'failed' && (lastAnswer.get(item.agent) ?? 0) < item.seq)
      items.push({ kind: 'failed', seq: item.seq, agent: item.agent, reason: item.reason });
  if (view.instructions)
    items.push({
      kind: 'instructions',
      seq: view.instructions.seq,
      paths: view.instructions.paths,
    });
  for (const lane of view.idleLanes ?? [])
    items.push({
      kind: 'idle',
      seq: view.lastSeq ?? 0,
      agent: lane.agent,
      unfinished: lane.unfinished.map((task) => task.id),
    });
  if (view.lineEnd && view.lineEnd.merged === null)
    items.push({ kind: 'merge', seq: view.lineEnd.seq, devCommit: view.lineEnd.devCommit });
  return items.sort((a, b) => a.seq - b.seq);
}

/** How many things wait for the person (the tab's title and the panel's badge). */
export function needsYouCount(view: NeedsYouSource): number {
  return needsYou(view).length;
}

/** The tab's title: the count first, so a person sees from another tab that Forja waits for them. */
export function pageTitle(count: number): string {
  return count > 0 ? `(${count}) Forja` : 'Forja';
}
