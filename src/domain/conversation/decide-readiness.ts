import { artifactEventType } from '../artifacts/artifact-payload.ts';
import {
  PRODUCT_BRIEF_TYPE,
  productBriefDefinition,
  type ProductBrief,
} from '../artifacts/product-brief.ts';
import { validateArtifactData } from '../artifacts/validate-artifact-data.ts';
import { isPersonActor, PERSON_ACTOR } from './actors.ts';
import type { CommandOf } from './commands.ts';
import { briefRound } from './brief-round.ts';
import { activeAgent } from './conversation-queries.ts';
import type { ConversationState } from './conversation-state.ts';
import { accept, refuse, type Decision } from './decision.ts';
import { SESSION_EVENTS } from './session-events.ts';

/** The agent readiness belongs to: the person confirms readiness of the ideation with Criativo. */
export const READINESS_AGENT = 'criativo';

/**
 * The person's "Estou pronto para produzir". Readiness is a person's action, never a model's inference
 * (record ADR 0008), so any other actor is refused; only while Criativo is active; and once per brief: again
 * only after the PO's handoff of the current brief was rejected (ADR 0160).
 */
export function decideConfirmReadiness(
  command: CommandOf<'ConfirmReadiness'>,
  state: ConversationState,
): Decision {
  if (!isPersonActor(command.actor)) {
    return refuse(
      `readiness is confirmed only by the person (actor "${PERSON_ACTOR}" or a person id), not by "${command.actor}"`,
    );
  }
  const round = briefRound(state);
  if (round.stage === 'consolidating')
    return refuse(
      `readiness was already confirmed in this session (seq ${round.readiness_seq}) and its product brief is not consolidated yet`,
    );
  if (round.stage === 'handed_over') {
    const where =
      round.handoff === null
        ? 'has no handoff to the PO'
        : `is ${round.handoff.status} (handoff ${round.handoff.id})`;
    return refuse(
      `readiness was already confirmed in this session (seq ${round.readiness_seq}); the product brief v${round.brief.data.version} ${where}, and readiness is confirmed again only after the PO's handoff is rejected`,
    );
  }
  if (activeAgent(state, READINESS_AGENT) === undefined) {
    return refuse(
      `readiness needs ${READINESS_AGENT} active in this session; start ${READINESS_AGENT} first`,
    );
  }
  return accept(SESSION_EVENTS.readinessConfirmed.create(command.actor, { v: 1 }));
}

/**
 * The brief guard: a product brief exists only after the person confirmed readiness, whatever the model says,
 * and one per confirmation: its `version` is the next one (set here, whatever the model wrote). The brief is
 * also checked against its schema and may cite only business rules of this session.
 */
export function decideRecordProductBrief(
  command: CommandOf<'RecordProductBrief'>,
  state: ConversationState,
): Decision {
  const round = briefRound(state);
  if (round.stage === 'ideation') {
    return refuse(
      'a product brief exists only after the person confirms readiness ("Estou pronto para produzir"); ' +
        'readiness is not confirmed in this session',
    );
  }
  if (round.stage !== 'consolidating') {
    return refuse(
      `the product brief v${round.brief.data.version} was already consolidated after the latest readiness (seq ${round.readiness_seq}); ` +
        "a new version needs readiness confirmed again, after the PO's handoff is rejected",
    );
  }
  if (activeAgent(state, command.agent) === undefined)
    return refuse(`agent ${command.agent} is not active in this session`);
  const checked = validateArtifactData(productBriefDefinition, withoutVersion(command.brief));
  if (!checked.ok) return refuse(checked.reason);
  const brief = { ...(checked.data as ProductBrief), version: round.next_version };
  const ruleIds = new Set(state.business_rules.map((rule) => rule.event_id));
  const unknownRefs = brief.business_rule_refs.flatMap((ref, index) =>
    ruleIds.has(ref)
      ? []
      : [
          `data.business_rule_refs[${index}]: no business rule with event id ${ref} in this session`,
        ],
  );
  if (unknownRefs.length > 0) return refuse(`${PRODUCT_BRIEF_TYPE} ${unknownRefs.join('; ')}`);
  return accept({
    type: artifactEventType(PRODUCT_BRIEF_TYPE),
    actor: command.agent,
    payload: { v: 1, data: brief },
  });
}

/** The model's brief without a `version` of its own: the version is the system's to give. */
function withoutVersion(brief: unknown): unknown {
  if (typeof brief !== 'object' || brief === null || Array.isArray(brief)) return brief;
  const { version: _ignored, ...rest } = brief as Record<string, unknown>;
  return rest;
}
