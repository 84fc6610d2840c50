import { randomUUID } from 'node:crypto';
import {
  historyToMessages,
  buildSystemPrompt,
  type PromptSources,
  consolidationTask,
  type SessionView,
} from '../agents/index.ts';
import {
  BRIEF_RECEIVER,
  briefRound,
  decide,
  PERSON_ACTOR,
  READINESS_AGENT,
  turnInProgress,
  SESSION_EVENTS,
} from '../domain/conversation/index.ts';
import type { GatewayTurnRequest } from '../gateway/index.ts';
import { offerHandoff, rejectionsOf, type Handoff } from '../domain/handoffs/index.ts';
import {
  appendedOrThrow,
  findSession,
  insertHandoff,
  type NewSessionEvent,
  type SessionEvent,
} from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { retryOnStaleView } from './expected-version.ts';
import { parseBriefJson } from './parse-brief-json.ts';
import { inLane } from './run-agent-turn.ts';

const CONSOLIDATION_MAX_OUTPUT_TOKENS = 2048;

export interface ReadinessOutcome {
  ok: true;
  brief: SessionEvent;
  handoff: Handoff;
}

/**
 * The person's "Estou pronto para produzir": records readiness, runs the consolidation turn, appends the
 * product brief (its event id captured) and offers a handoff to the PO — brief, closing response, handoff
 * row and `handoff.offered` in one transaction. Without readiness no brief exists, whatever the model says
 * (the domain refuses it). A consolidation that failed can be retried by pressing the button again. After the
 * PO's handoff was rejected the person presses it again: a new version of the brief, offered again (ADR 0160).
 */
export async function confirmReadiness(
  dependencies: ConversationDependencies,
  prompts: PromptSources,
  sessionId: string,
  actor = PERSON_ACTOR,
  options: { onStarted?: (turnId: string) => void } = {},
): Promise<ReadinessOutcome | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  // A refused request stores nothing, not even the lane's lease row: what would refuse (a brief already there, a
  // turn in progress, no model, no budget) is checked before the lane is taken, and again inside it.
  const refused = await readinessCheck(
    dependencies,
    prompts,
    session.project_id,
    sessionId,
    actor,
    await dependencies.views.load(sessionId),
  );
  if ('status' in refused) return refused;
  // Criativo's lane: the consolidation is Criativo's turn, for the person (no turn slot to wait for).
  return inLane(dependencies, sessionId, READINESS_AGENT, 'person', async () => {
    const recorded = await retryOnStaleView(dependencies, sessionId, 'readiness', async (view) => {
      const checked = await readinessCheck(
        dependencies,
        prompts,
        session.project_id,
        sessionId,
        actor,
        view,
      );
      if ('status' in checked) return checked;
      // With the expected version: another lane appending meanwhile makes readiness be decided again.
      if (checked.confirmed)
        appendedOrThrow(
          await dependencies.eventLog.append(sessionId, checked.confirmed, {
            expectedSeq: view.state.last_seq,
          }),
        );
      return { ok: true as const };
    });
    if (!recorded.ok) return recorded;
    const view = await dependencies.views.load(sessionId);
    return consolidate(
      dependencies,
      prompts,
      session.project_id,
      sessionId,
      view,
      options.onStarted,
    );
  });
}

/**
 * Whether readiness can be confirmed on `view`: the refusal, or the events that confirm it (null when it was
 * confirmed already and only the consolidation is retried).
 */
async function readinessCheck(
  dependencies: ConversationDependencies,
  prompts: PromptSources,
  projectId: string,
  sessionId: string,
  actor: string,
  view: SessionView,
): Promise<Refusal | { confirmed: readonly NewSessionEvent[] | null }> {
  const round = briefRound(view.state);
  if (round.stage === 'handed_over')
    return refusal(
      409,
      'brief_exists',
      `This session already has its product brief v${round.brief.data.version} (seq ${round.brief.seq})` +
        (round.handoff === null
          ? '.'
          : `, handed to the PO (handoff ${round.handoff.id} is ${round.handoff.status}); press again only after rejecting that handoff.`),
    );
  // Confirmed and not consolidated yet: a retry of the consolidation, without a second confirmation.
  const confirmed =
    round.stage === 'consolidating'
      ? null
      : decide({ type: 'ConfirmReadiness', actor }, view.state);
  if (confirmed && !confirmed.ok) return refusal(409, 'readiness_refused', confirmed.reason);
  const running = turnInProgress(view.state, READINESS_AGENT);
  if (running !== null)
    return refusal(
      409,
      'turn_refused',
      `turn ${running.turn_id} of agent ${running.agent} is in progress (started at seq ${running.seq}); turns of one agent run one at a time`,
    );
  // A call the gateway would refuse (no model, no budget) is refused here, before readiness and the turn are
  // recorded. A refusal by the reservation itself (a race) is recorded.
  const preflight = await dependencies.gateway.preflight(
    await consolidationRequest(prompts, projectId, sessionId, view),
  );
  if (!preflight.ok)
    return refusal(
      preflight.status === 'not_configured' ? 503 : 409,
      preflight.status,
      preflight.message,
    );
  return { confirmed: confirmed ? confirmed.events : null };
}

async function consolidate(
  dependencies: ConversationDependencies,
  prompts: PromptSources,
  projectId: string,
  sessionId: string,
  view: SessionView,
  onStarted?: (turnId: string) => void,
): Promise<ReadinessOutcome | Refusal> {
  const { state } = view;
  const turnId = dependencies.newId();
  const started = decide(
    { type: 'StartTurn', agent: 'criativo', turn_id: turnId, kind: 'consolidation' },
    state,
  );
  if (!started.ok) return refusal(409, 'turn_refused', started.reason);
  await dependencies.eventLog.append(sessionId, started.events);
  onStarted?.(turnId);
  const lane = { agent: READINESS_AGENT, turn_id: turnId };

  const outcome = await dependencies.gateway.runTurn(
    await consolidationRequest(prompts, projectId, sessionId, view),
  );
  if (outcome.status !== 'completed') {
    const message =
      outcome.status === 'cancelled' ? 'The consolidation was cancelled.' : outcome.message;
    await failTurn(dependencies, sessionId, turnId, outcome.status, message);
    return refusal(
      outcome.status === 'not_configured' ? 503 : outcome.status === 'budget_exceeded' ? 409 : 502,
      outcome.status,
      message,
    );
  }

  // Brief, closing response, handoff row and `handoff.offered` in one transaction with the expected version:
  // a lane that appended meanwhile (the person talking to another agent) makes it decide again.
  const recorded = await retryOnStaleView(
    dependencies,
    sessionId,
    'recording the product brief',
    async (afterStart) => {
      const brief = decide(
        { type: 'RecordProductBrief', agent: READINESS_AGENT, brief: parseBriefJson(outcome.text) },
        afterStart.state,
      );
      if (!brief.ok) return { ok: false as const, reason: brief.reason };
      const briefEvent = { ...brief.events[0]!, id: randomUUID() };
      const offered = offerHandoff({
        id: randomUUID(),
        session_id: sessionId,
        from_agent: 'criativo',
        to_agent: 'po',
        artifact_id: briefEvent.id,
        actor: 'system',
      });
      if (!offered.ok) throw new Error(`offering the handoff to the PO failed: ${offered.reason}`);
      const { title, version } = (
        brief.events[0]!.payload as unknown as { data: { title: string; version: number } }
      ).data;
      const closing = SESSION_EVENTS.agentResponse.create('criativo', {
        v: 1,
        ...lane,
        text: `Product brief consolidado (v${version}): ${title}. Ofereci o trabalho ao PO.`,
        usage_id: outcome.usageId,
      });
      const events = await dependencies.database.transaction(async (transaction) => {
        await insertHandoff(transaction, offered.handoff);
        return appendedOrThrow(
          await dependencies.eventLog.appendWithin(
            transaction,
            sessionId,
            [briefEvent, closing, offered.event],
            { expectedSeq: afterStart.state.last_seq },
          ),
        ).events;
      });
      return { ok: true as const, events, handoff: offered.handoff };
    },
  );
  if (!recorded.ok) {
    const message =
      'reason' in recorded
        ? `The model's product brief was not valid: ${recorded.reason}. Press the button again to retry.`
        : recorded.message;
    await failTurn(
      dependencies,
      sessionId,
      turnId,
      'reason' in recorded ? 'invalid_brief' : 'conflict',
      message,
    );
    return refusal(
      'reason' in recorded ? 502 : 409,
      'reason' in recorded ? 'invalid_brief' : 'conflict',
      message,
    );
  }
  const appended = recorded.events;
  const offered = { handoff: recorded.handoff };
  await dependencies.views.load(sessionId);
  dependencies.liveTurns.publish({
    type: 'agent.done',
    session_id: sessionId,
    agent: 'criativo',
    turn_id: turnId,
    status: 'completed',
  });
  return { ok: true, brief: appended[0]!, handoff: offered.handoff };
}

async function consolidationRequest(
  prompts: PromptSources,
  projectId: string,
  sessionId: string,
  { state, events }: Pick<SessionView, 'state' | 'events'>,
): Promise<GatewayTurnRequest> {
  // A new version after a rejection is written knowing why the last one was refused.
  const rejection = rejectionsOf(events, READINESS_AGENT)
    .filter((each) => each.to_agent === BRIEF_RECEIVER)
    .at(-1);
  const rules = state.business_rules.map((rule) => ({
    event_id: rule.event_id,
    seq: rule.seq,
    title: rule.title,
  }));
  const report = await buildSystemPrompt(prompts, 'criativo', projectId, {
    taskState: consolidationTask(
      rules,
      rejection === undefined || state.product_brief === null
        ? null
        : { version: state.product_brief.data.version, reason: rejection.reason },
    ),
  });
  return {
    projectId,
    sessionId,
    agent: 'criativo',
    system: report.prompt,
    messages: historyToMessages(state.history, 'criativo'),
    tools: [],
    maxOutputTokens: CONSOLIDATION_MAX_OUTPUT_TOKENS,
  };
}

async function failTurn(
  dependencies: ConversationDependencies,
  sessionId: string,
  turnId: string,
  reason: string,
  message: string,
): Promise<void> {
  await dependencies.eventLog.append(sessionId, [
    SESSION_EVENTS.turnFailed.create('system', {
      v: 1,
      turn_id: turnId,
      agent: READINESS_AGENT,
      reason,
      message,
    }),
  ]);
  await dependencies.views.load(sessionId);
  dependencies.liveTurns.publish({
    type: 'agent.done',
    session_id: sessionId,
    agent: 'criativo',
    turn_id: turnId,
    status: 'failed',
  });
}
