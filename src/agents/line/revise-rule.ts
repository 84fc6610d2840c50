import { z } from 'zod';
import {
  ARTIFACT_PAYLOAD_VERSION,
  artifactEvent,
  BUSINESS_RULE_TYPE,
  businessRuleDefinition,
  checkOrigin,
  MAX_ORIGIN_SEQS,
  PRODUCT_BRIEF_TYPE,
} from '../../domain/artifacts/index.ts';
import {
  CONVERSATION_EVENT_TYPES,
  EVENT_TYPES,
  isPersonActor,
  type ConversationState,
  type NewSessionEvent,
  type RecordedBusinessRule,
  type SessionEvent,
} from '../../domain/conversation/index.ts';

const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')
    .refine((value) => value.isWellFormed(), 'must not contain a lone UTF-16 surrogate')
    .describe(what);

export const ReviseRuleSchema = z.strictObject({
  rule_id: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'must be at most 64 characters')
    .describe(
      'The rule as your prompt lists it: its number ("regra #12" or "#12") or its id (business_rule_refs).',
    ),
  statement: text(2000, 'The rule as the person now states it, whole (not only what changed).'),
  title: text(160, 'A new title, only when the old one no longer fits.').optional(),
  origin: z
    .array(z.number().int())
    .min(1, 'must cite at least one message')
    .max(MAX_ORIGIN_SEQS, `must have at most ${MAX_ORIGIN_SEQS} seqs`)
    .describe("Seqs ([#N]) of the person's messages that changed the rule."),
});

export type ReviseRuleArguments = z.infer<typeof ReviseRuleSchema>;

/** What a revision records: the new version, and the brief's next version when the brief cites the rule. */
export type RuleRevision = {
  readonly rule: RecordedBusinessRule;
  readonly statement: string;
  readonly title: string;
  readonly events: readonly (NewSessionEvent & { readonly id?: string })[];
  /** True when a new version of the brief is recorded with it. */
  readonly briefFollows: boolean;
};

/**
 * Plans `revise_rule`: the rule named must stand (a superseded version is refused, naming the current one),
 * the origin must cite a message of the person's, and the new version must differ. The new version
 * (`artifact.business_rule` with `supersedes`, id `newId`) is recorded by `agent`; a brief citing the old
 * version gets its next version citing the new one, recorded by the system. Pure.
 */
export function planRuleRevision(
  args: ReviseRuleArguments,
  context: {
    readonly state: ConversationState;
    readonly events: readonly SessionEvent[];
    readonly agent: string;
    readonly newId: string;
  },
): { ok: true; revision: RuleRevision } | { ok: false; reason: string } {
  const { state, events } = context;
  const id = ruleIdOf(state, args.rule_id);
  const rule = state.business_rules.find((each) => each.event_id === id);
  if (rule === undefined) return { ok: false, reason: unknownRule(state, id, args.rule_id) };
  const origin = checkOrigin(businessRuleDefinition, args.origin, events, CONVERSATION_EVENT_TYPES);
  if (!origin.ok) return { ok: false, reason: origin.reason };
  const personSaid = new Set(
    events
      .filter((event) => event.type === EVENT_TYPES.chatMessage && isPersonActor(event.actor))
      .map((event) => event.seq),
  );
  if (!origin.origin.some((seq) => personSaid.has(seq)))
    return {
      ok: false,
      reason:
        "origin: must cite at least one of the person's messages ([#N] of a message they wrote): only the person changes a rule",
    };
  const title = args.title ?? rule.title;
  if (title === rule.title && args.statement === rule.statement)
    return {
      ok: false,
      reason: 'statement: the rule already says exactly this; nothing to revise',
    };
  const revised = artifactEvent(BUSINESS_RULE_TYPE, context.agent, {
    v: ARTIFACT_PAYLOAD_VERSION,
    data: { title, statement: args.statement },
    origin: origin.origin,
    supersedes: rule.event_id,
  });
  const brief = briefFollowing(state, rule.event_id, context.newId);
  return {
    ok: true,
    revision: {
      rule,
      statement: args.statement,
      title,
      events: [{ ...revised, id: context.newId }, ...(brief === null ? [] : [brief])],
      briefFollows: brief !== null,
    },
  };
}

/** The brief's next version citing `newId` where it cited `oldId`; null when no brief cites it. */
function briefFollowing(
  state: ConversationState,
  oldId: string,
  newId: string,
): NewSessionEvent | null {
  const brief = state.product_brief;
  if (brief === null || !brief.data.business_rule_refs.includes(oldId)) return null;
  const version = Math.max(...state.product_briefs.map((each) => each.data.version)) + 1;
  return artifactEvent(PRODUCT_BRIEF_TYPE, 'system', {
    v: ARTIFACT_PAYLOAD_VERSION,
    data: {
      ...brief.data,
      version,
      business_rule_refs: brief.data.business_rule_refs.map((ref) => (ref === oldId ? newId : ref)),
    },
  });
}

/** The event id `ruleId` names: a rule's number ("regra #12", "#12", "12") is its seq; anything else an id. */
function ruleIdOf(state: ConversationState, ruleId: string): string {
  const number = /^(?:regra\s*)?#?\s*(\d+)$/i.exec(ruleId.trim())?.[1];
  if (number === undefined) return ruleId;
  const seq = Number(number);
  const rule = [...state.business_rules, ...state.superseded_rules].find(
    (each) => each.seq === seq,
  );
  return rule?.event_id ?? ruleId;
}

function unknownRule(state: ConversationState, id: string, asked: string): string {
  const superseded = state.superseded_rules.find((rule) => rule.event_id === id);
  if (superseded === undefined)
    return `rule_id: no business rule ${asked} in this session; the rules are listed in your prompt (regra #N)`;
  let current = superseded.superseded_by;
  for (;;) {
    const next = state.superseded_rules.find((rule) => rule.event_id === current);
    if (next === undefined) break;
    current = next.superseded_by;
  }
  const standing = state.business_rules.find((rule) => rule.event_id === current);
  return `rule_id: ${asked} was already revised; the rule as it stands is ${standing === undefined ? current : `regra #${standing.seq} (${current})`}`;
}
