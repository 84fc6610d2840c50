import { StoredArtifactPayloadSchema, artifactTypeOf } from '../artifacts/artifact-payload.ts';
import {
  BUSINESS_RULE_TYPE,
  BusinessRuleSchema,
  type BusinessRule,
} from '../artifacts/business-rule.ts';
import {
  PRODUCT_BRIEF_TYPE,
  ProductBriefSchema,
  type ProductBrief,
} from '../artifacts/product-brief.ts';
import { DECISION_TYPE, DecisionSchema, type Decision } from '../artifacts/decision.ts';
import { currentVersion } from '../architecture/current-version.ts';
import type { ConversationDraft } from './conversation-draft.ts';
import type { RecordedProductBrief } from './conversation-state.ts';
import { read } from './read-payload.ts';
import type { SessionEvent } from './session-event.ts';

/**
 * Folds an `artifact.<type>` event: every artifact is listed (a handoff may point to any of them); business
 * rules and the product briefs are also kept whole because the prompt and the page show them. The current
 * brief is the highest version, ties broken by seq (so logs from before versions keep the latest one). A product brief in the log is taken as a fact even without readiness — the guard
 * lives in `decide`, which is the only way the system writes one. An artifact whose data cannot be read is
 * skipped whole (not listed), so nothing points at data the state does not hold.
 */
export function applyArtifact(draft: ConversationDraft, event: SessionEvent): void {
  const type = artifactTypeOf(event.type);
  if (type === null) return;
  read(draft, event, StoredArtifactPayloadSchema, (payload) => {
    const where = { event_id: event.id, seq: event.seq };
    const list = () => draft.artifacts.push({ ...where, type });
    if (type === BUSINESS_RULE_TYPE) {
      const origin = payload.origin ?? [];
      const addRule = (rule: BusinessRule) => {
        list();
        const supersedes = payload.supersedes ?? null;
        replaceRule(draft, supersedes, event.id);
        draft.business_rules.push({
          ...rule,
          ...where,
          origin,
          supersedes,
          recorded_by: event.actor,
        });
      };
      read(draft, event, BusinessRuleSchema, addRule, payload.data, 'payload.data');
    } else if (type === PRODUCT_BRIEF_TYPE) {
      const setBrief = (data: ProductBrief) => {
        list();
        draft.product_briefs.push({ ...where, data });
        draft.product_brief = currentBrief(draft.product_briefs);
      };
      read(draft, event, ProductBriefSchema, setBrief, payload.data, 'payload.data');
    } else if (type === DECISION_TYPE) {
      const addDecision = (decision: Decision) => {
        list();
        draft.decisions.push({
          ...decision,
          ...where,
          recorded_by: event.actor,
          origin: payload.origin ?? [],
        });
      };
      read(draft, event, DecisionSchema, addDecision, payload.data, 'payload.data');
    } else {
      list();
    }
  });
}

/** The current brief among `briefs`: the same resolution as the Arquiteto's versioned artifacts. */
function currentBrief(briefs: readonly RecordedProductBrief[]): RecordedProductBrief | null {
  const declarations = briefs.map((brief) => ({
    seq: brief.seq,
    payload: { version: brief.data.version },
    brief,
  }));
  return currentVersion(declarations)?.brief ?? null;
}

/** A revision moves the version it names from the current rules to the superseded ones (no-op when not current). */
function replaceRule(draft: ConversationDraft, supersedes: string | null, by: string): void {
  const index = draft.business_rules.findIndex((rule) => rule.event_id === supersedes);
  if (index === -1) return;
  const [old] = draft.business_rules.splice(index, 1);
  draft.superseded_rules.push({ ...old!, superseded_by: by });
}
