import { randomUUID } from 'node:crypto';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import { planRuleRevision, ReviseRuleSchema } from './revise-rule.ts';

/**
 * `revise_rule` `{rule_id, statement, title?, origin}`: the person changed a business rule, said to any agent.
 * The rule gets a new version that supersedes the old one (which stays in the log, marked), with the person's
 * messages as provenance; a brief citing the rule follows in a new version; the PO and the Arquiteto are owed a
 * turn told of it (the PO re-declares the stories that follow the rule).
 */
export function reviseRuleTool(): AgentTool {
  return defineTool({
    name: 'revise_rule',
    description:
      "When the person changes a business rule (a deadline, a limit, a price…), record the new version: {rule_id: the id of the rule as listed, statement: the whole rule as it now stands, title?: only if it changes, origin: [seq of the person's message that changed it]}. The old version is marked superseded, the brief follows, and the PO and the Arquiteto are told. Never record a changed rule as a new one, and never change a rule the person did not change.",
    parameters: ReviseRuleSchema,
    mode: 'direct',
    run: async (args, context) => {
      const planned = planRuleRevision(args, {
        state: context.state,
        events: context.events,
        agent: context.agent,
        newId: randomUUID(),
      });
      if (!planned.ok) return { ok: false, result: `revise_rule refused: ${planned.reason}` };
      const { revision } = planned;
      const told =
        context.agent === 'po'
          ? 'The Arquiteto is told. Re-declare now, with declare_backlog, the stories and epics that follow this rule (same ids, business_rule_refs citing the new id).'
          : 'The PO and the Arquiteto are told.';
      return {
        ok: true,
        result: `Revised "${revision.title}": the rule is now ${revision.events[0]!.id} ("${revision.statement}"), superseding ${revision.rule.event_id}.${revision.briefFollows ? ' The brief follows in a new version.' : ''} ${told}`,
        events: [...revision.events],
      };
    },
  });
}
