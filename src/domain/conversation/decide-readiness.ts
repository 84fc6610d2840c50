import { artifactEventType } from '../artifacts/artifact-payload.ts';
import {
  PRODUCT_BRIEF_TYPE,
  productBriefDefinition,
  type ProductBrief,
} from '../artifacts/product-brief.ts';
import { validateArtifactData } from '../artifacts/validate-artifact-data.ts';
import { isPersonActor, PERSON_ACTOR } from './actors.ts';
import type { CommandOf } from './commands.ts';
import { activeAgent } from './conversation-queries.ts';
import type { ConversationState } from './conversation-state.ts';
import { accept, refuse, type Decision } from './decision.ts';
import { EVENT_TYPES } from './event-types.ts';

/** The agent readiness belongs to: the person confirms readiness of the ideation with Criativo. */
export const READINESS_AGENT = 'criativo';

/**
 * The person's "Estou pronto para produzir". Readiness is a person's action, never a model's inference
 * (ADR 0008 §5), so any other actor is refused; it happens once, and only while Criativo is active.
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
  if (state.readiness.confirmed)
    return refuse(`readiness was already confirmed in this session (seq ${state.readiness.seq})`);
  if (activeAgent(state, READINESS_AGENT) === undefined) {
    return refuse(
      `readiness needs ${READINESS_AGENT} active in this session; start ${READINESS_AGENT} first`,
    );
  }
  return accept({ type: EVENT_TYPES.readinessConfirmed, actor: command.actor, payload: { v: 1 } });
}

/**
 * The brief guard: a product brief exists only after the person confirmed readiness, whatever the model says.
 * The brief is also checked against its schema and may cite only business rules of this session.
 */
export function decideRecordProductBrief(
  command: CommandOf<'RecordProductBrief'>,
  state: ConversationState,
): Decision {
  if (!state.readiness.confirmed) {
    return refuse(
      'a product brief exists only after the person confirms readiness ("Estou pronto para produzir"); ' +
        'readiness is not confirmed in this session',
    );
  }
  if (activeAgent(state, command.agent) === undefined)
    return refuse(`agent ${command.agent} is not active in this session`);
  const checked = validateArtifactData(productBriefDefinition, command.brief);
  if (!checked.ok) return refuse(checked.reason);
  const brief = checked.data as ProductBrief;
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
