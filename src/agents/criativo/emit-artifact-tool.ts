import { z } from 'zod';
import {
  artifactEvent,
  validateEmitArtifact,
  type ArtifactRegistry,
} from '../../domain/artifacts/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';

const EmitArtifactArguments = z.object({
  type: z.string().describe('The artifact type, e.g. "business_rule".'),
  data: z
    .record(z.string(), z.unknown())
    .describe('For business_rule: { "title": "...", "statement": "..." }.'),
  origin: z
    .array(z.number().int())
    .describe(
      'Seqs ([#N]) of the messages of this conversation the artifact comes from; at least one.',
    ),
});

/**
 * `emit_artifact` (direct): records a typed artifact of the conversation. The domain decides, whatever the
 * model says: a business rule needs an `origin` in this session's messages; system-only types (the product
 * brief) are refused with the reason.
 */
export function emitArtifactTool(registry: ArtifactRegistry): AgentTool {
  return defineTool({
    name: 'emit_artifact',
    description:
      'Record an artifact of this conversation. Use it for each business rule the person confirms: ' +
      '{"type":"business_rule","data":{"title":"…","statement":"…"},"origin":[seq,…]} where origin cites the [#seq] of the messages it comes from.',
    parameters: EmitArtifactArguments,
    mode: 'direct',
    // "Recorded business_rule." tells the model nothing: a turn that spoke and recorded ends (ADR 0380).
    recordsOnly: true,
    run: async (args, context) => {
      const checked = validateEmitArtifact(args, context.events, registry);
      if (!checked.ok) return { ok: false, result: checked.reason };
      const { artifact } = checked;
      return {
        ok: true,
        result: `Recorded ${artifact.type}.`,
        events: [artifactEvent(artifact.type, context.agent, artifact.payload)],
      };
    },
  });
}
