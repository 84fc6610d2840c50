import { z } from '@hono/zod-openapi';
import {
  c4DiagramSchema,
  moduleContractsSchema,
  moduleMapSchema,
  moduleRoutingSchema,
  projectImageSchema,
} from '../domain/architecture/index.ts';
import {
  BusinessRuleSchema,
  DecisionSchema,
  EpicSchema,
  ProductBriefSchema,
  StorySchema,
  TaskSchema,
} from '../domain/artifacts/index.ts';
import { TURN_KINDS } from '../domain/conversation/index.ts';
import { HANDOFF_STATUSES } from '../domain/handoffs/index.ts';
import { BLOCK_KINDS, BlockResolutionSchema } from '../domain/line/index.ts';

/**
 * The bodies of the routes that answer with a view of the domain (the folded session state, the project's
 * architecture and backlog, the line, the dev agents, an agent's next request): each written from the domain's
 * types and built from its zod schemas' shapes (a domain schema has no `.openapi`: it may have been made before
 * @hono/zod-openapi extended zod), strict so a field the document does not name fails the test that parses a
 * real answer (ADR 0423). A route handler returning something else is a type error.
 */

const seq = () => z.number().int();
const nullable = <Schema extends z.ZodType>(schema: Schema) => schema.nullable();
/** A list: readonly, as the domain's views hand theirs over. */
const list = <Schema extends z.ZodType>(schema: Schema) => z.array(schema).readonly();

export const HandoffSchema = z
  .strictObject({
    id: z.uuid(),
    session_id: z.uuid(),
    from_agent: z.string(),
    to_agent: z.string(),
    artifact_id: z.string().nullable(),
    status: z.enum(HANDOFF_STATUSES),
  })
  .openapi('Handoff');

/** Which model serves the calls (the gateway's `ModelStatus`). */
export const ModelStatusSchema = z
  .discriminatedUnion('configured', [
    z.strictObject({ configured: z.literal(true), provider: z.string(), model: z.string() }),
    z.strictObject({ configured: z.literal(false), message: z.string() }),
  ])
  .openapi('ModelStatus');
export const AgentModelSchema = z
  .discriminatedUnion('configured', [
    z.strictObject({
      agent: z.string(),
      variable: z.string(),
      configured: z.literal(true),
      provider: z.string(),
      model: z.string(),
    }),
    z.strictObject({
      agent: z.string(),
      variable: z.string(),
      configured: z.literal(false),
      message: z.string(),
    }),
  ])
  .openapi('AgentModel');

const recordedRule = {
  ...BusinessRuleSchema.shape,
  event_id: z.string(),
  seq: seq(),
  origin: list(z.number()),
  supersedes: z.string().nullable(),
  recorded_by: z.string(),
};
// Not a named schema: a nullable named schema reaches the web's types as `allOf`, which drops the `null`.
const recordedProductBrief = () =>
  z.strictObject({
    event_id: z.string(),
    seq: seq(),
    data: z.strictObject(ProductBriefSchema.shape),
  });

export const SessionStateSchema = z
  .strictObject({
    session_id: z.string().nullable(),
    last_seq: seq(),
    active_agents: list(
      z.strictObject({ agent: z.string(), handoff_id: z.string().nullable(), seq: seq() }),
    ),
    business_rules: list(z.strictObject(recordedRule)),
    superseded_rules: list(z.strictObject({ ...recordedRule, superseded_by: z.string() })),
    product_brief: recordedProductBrief().nullable(),
    product_briefs: list(recordedProductBrief()),
    artifacts: list(z.strictObject({ event_id: z.string(), seq: seq(), type: z.string() })),
    readiness: z.discriminatedUnion('confirmed', [
      z.strictObject({ confirmed: z.literal(false) }),
      z.strictObject({
        confirmed: z.literal(true),
        event_id: z.string(),
        seq: seq(),
        confirmed_at: z.string(),
      }),
    ]),
    handoffs: list(HandoffSchema),
    turns_in_progress: list(
      z.strictObject({
        turn_id: z.string(),
        agent: z.string(),
        kind: z.enum(TURN_KINDS),
        seq: seq(),
      }),
    ),
    lane_ends: list(
      z.strictObject({
        agent: z.string(),
        turn_id: z.string(),
        kind: z.enum(TURN_KINDS),
        started_seq: seq(),
        outcome: z.enum(['answered', 'failed', 'stopped', 'limit_reached']),
        answer_event_id: z.string().nullable(),
        ended_seq: seq(),
        used_tools: z.boolean(),
      }),
    ),
    last_addressed: z.strictObject({ agent: z.string(), seq: seq() }).nullable(),
    ended_at_seq: seq().nullable(),
    pending_actions: list(
      z.strictObject({
        action_id: z.string(),
        tool_call_id: z.string().nullable(),
        status: z.enum(['proposed', 'approved']),
        agent: z.string(),
        turn_id: z.string().nullable(),
        tool: z.string(),
        args: z.unknown().openapi({ description: "The tool's arguments, as the model sent them" }),
        seq: seq(),
      }),
    ),
    questions: list(
      z.strictObject({
        question_id: z.string(),
        tool_call_id: z.string(),
        agent: z.string(),
        turn_id: z.string(),
        question: z.string(),
        options: list(z.string()),
        why: z.string().nullable(),
        seq: seq(),
        status: z.enum(['asked', 'answered']),
        answer: z.string().nullable(),
        decide_yourself: z.boolean(),
      }),
    ),
    decisions: list(
      z.strictObject({
        ...DecisionSchema.shape,
        event_id: z.string(),
        seq: seq(),
        recorded_by: z.string(),
        origin: list(z.number()),
      }),
    ),
    skipped: list(z.strictObject({ seq: seq(), type: z.string(), reason: z.string() })),
    model: ModelStatusSchema,
    models: list(AgentModelSchema),
  })
  .openapi('SessionState');

/** One recorded declaration of a versioned Arquiteto artifact, with `data` read by its own schema. */
const artifactVersion = <Data extends z.ZodType>(data: Data) =>
  z.strictObject({
    version: z.number().int(),
    data,
    event_id: z.string(),
    session_id: z.string(),
    seq: seq(),
    created_at: z.string(),
  });
const versionEntry = z.strictObject({
  version: z.number().int(),
  event_id: z.string(),
  session_id: z.string(),
  seq: seq(),
  created_at: z.string(),
});

export const ProjectArchitectureSchema = z
  .strictObject({
    module_map: nullable(artifactVersion(moduleMapSchema)),
    module_contracts: nullable(artifactVersion(moduleContractsSchema)),
    module_routing: nullable(artifactVersion(moduleRoutingSchema)),
    c4_diagram: nullable(artifactVersion(c4DiagramSchema)),
    project_image: nullable(artifactVersion(projectImageSchema)),
    history: z
      .strictObject({
        module_map: list(versionEntry),
        module_contracts: list(versionEntry),
        module_routing: list(versionEntry),
        c4_diagram: list(versionEntry),
        project_image: list(versionEntry),
      })
      .openapi({ description: 'Every readable declaration by type, in recording order' }),
    c4_container_view: z
      .strictObject({
        containers: list(
          z.strictObject({ name: z.string(), technology: z.string(), description: z.string() }),
        ),
        relations: list(z.strictObject({ from: z.string(), to: z.string() })),
      })
      .nullable()
      .openapi({
        description: 'The C4 container level derived from the module map; null without one',
      }),
    docs: z
      .strictObject({
        module_map: z.string(),
        module_contracts: z.string(),
        module_routing: z.string(),
        c4_diagram: z.string(),
        project_image: z.string(),
      })
      .openapi({ description: "Each artifact's file under docs/ in the project's repository" }),
  })
  .openapi('ProjectArchitecture');

const contractItem = z.strictObject(
  moduleContractsSchema.shape.contratos.element.shape.expoe.element.shape,
);
const relation = z.enum(['own', 'consumed', 'consumer', 'other']);
export const ModuleContractsListingSchema = z
  .strictObject({
    module: z.string().nullable(),
    text: z.string().openapi({ description: 'The listing as the dev agent reads it' }),
    listing: z.strictObject({
      module: z.string().nullable(),
      moduleInMap: z.boolean().nullable(),
      moduleMapVersion: z.number().int().nullable(),
      contractsVersion: z.number().int().nullable(),
      modules: list(
        z.discriminatedUnion('detail', [
          z.strictObject({
            name: z.string(),
            relation,
            detail: z.literal('full'),
            responsibility: z.string(),
            stack: z.string(),
            dependsOn: list(z.string()),
            expoe: list(contractItem).nullable(),
            declaredItems: z.number().int().nullable(),
            omittedItems: z.number().int(),
          }),
          z.strictObject({ name: z.string(), relation, detail: z.literal('name_only') }),
        ]),
      ),
      contractsOutsideMap: list(
        z.strictObject({ modulo: z.string(), declaredItems: z.number().int() }),
      ),
      maxItems: z.number().int(),
      shownItems: z.number().int(),
      omittedItems: z.number().int(),
      argumentsIgnored: list(z.string()),
    }),
  })
  .openapi('ModuleContractsListing');

export const BacklogSchema = z
  .strictObject({
    epics: list(z.strictObject(EpicSchema.shape)),
    stories: list(z.strictObject(StorySchema.shape)),
    tasks: list(z.strictObject(TaskSchema.shape)),
    split: z
      .array(z.strictObject(TaskSchema.shape))
      .openapi({ description: 'Tasks the Arquiteto split: their parts are in `tasks`' }),
  })
  .openapi('Backlog');

export const DevProgressSchema = z
  .strictObject({
    devs: list(
      z.strictObject({
        agent: z.string(),
        module: z.string(),
        handoff: z.strictObject({ id: z.string(), status: z.string() }).nullable(),
        active: z.boolean(),
        blocks: list(
          z.strictObject({
            seq: seq(),
            created_at: z.string(),
            kind: z.enum(BLOCK_KINDS),
            modulo: z.string(),
            falta: z.string(),
            status: z.enum(['open', 'resolved', 'unblocked']),
            resolution: BlockResolutionSchema.nullable(),
            needs_person: z.boolean(),
          }),
        ),
        finished: list(
          z.strictObject({
            seq: seq(),
            created_at: z.string(),
            task_id: z.string(),
            summary: z.string(),
            branch: z.string(),
            commit: z.string(),
            files: list(z.string()),
          }),
        ),
      }),
    ),
  })
  .openapi('DevProgress');

export const SessionLineSchema = z
  .strictObject({
    modules: list(
      z.strictObject({
        module: z.string(),
        branch: z.string(),
        state: z.enum([
          'not_started',
          'working',
          'blocked',
          'finished',
          'merged',
          'conflict',
          'failed',
        ]),
        last_check: z
          .strictObject({
            command: z.string(),
            source: z.string(),
            exit_code: z.number().int(),
            duration_ms: z.number(),
          })
          .nullable(),
        merged_commit: z.string().nullable(),
        failure: z
          .strictObject({
            kind: z.enum(['conflict', 'check']),
            paths: list(z.string()).optional(),
            output: z.string().optional(),
            seq: seq(),
          })
          .nullable(),
        tasks: list(z.string()).openapi({ description: "The backlog's tasks of the module" }),
      }),
    ),
    completed: z
      .strictObject({ commit: z.string(), seq: seq(), checks_skipped: list(z.string()) })
      .nullable(),
    merged_into_main: z
      .strictObject({ commit: z.string(), dev_commit: z.string(), seq: seq() })
      .nullable(),
    workspace_path: z
      .string()
      .nullable()
      .openapi({ description: "The project's repository on the server, once merged into main" }),
    clone_path: z
      .string()
      .nullable()
      .openapi({ description: 'Where to `git clone` it from this server, once merged into main' }),
  })
  .openapi('SessionLine');

export const AcceptedDevHandoffsSchema = z
  .strictObject({ accepted: list(HandoffSchema) })
  .openapi('AcceptedDevHandoffs');

export const KickoffsQueuedSchema = z
  .strictObject({ queued: z.literal(true) })
  .openapi('KickoffsQueued');

const modelMessage = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z
      .array(z.strictObject({ id: z.string(), name: z.string(), rawArguments: z.string() }))
      .optional(),
  }),
  z.strictObject({
    role: z.literal('tool'),
    toolCallId: z.string(),
    content: z.string(),
    isError: z.boolean().optional(),
  }),
]);

export const AgentContextSchema = z
  .strictObject({
    session_id: z.string(),
    system: z.string().openapi({ description: 'The system prompt as assembled now' }),
    layers: z
      .array(
        z.strictObject({
          name: z.string(),
          strategy: z.string(),
          budget: z.number(),
          tokens: z.number(),
          estimated: z.boolean(),
          status: z.string(),
        }),
      )
      .nullable()
      .openapi({
        description: "The prompt's layers; null for a prompt the harness does not assemble",
      }),
    tools: list(z.string()),
    agent: z.string(),
    model: z.strictObject({ provider: z.string(), model: z.string() }).nullable(),
    window: z.strictObject({
      tokens: z.number(),
      source: z.enum(['agent_setting', 'setting', 'server', 'model_family', 'default']),
      from: z.string(),
      truncates_at: z.number().nullable(),
      warning: z.string().nullable(),
    }),
    system_tokens: z.number(),
    tool_tokens: z.number(),
    max_output_tokens: z.number(),
    margin_tokens: z.number(),
    history_budget: z.number(),
    compact_at_tokens: z.number(),
    compaction: z
      .strictObject({
        seq: seq(),
        through_seq: seq(),
        summary: z.string(),
        tokens_before: z.number(),
        tokens_after: z.number(),
        payloads_through_seq: seq(),
      })
      .nullable(),
    history_messages: z.number().int(),
    history_tokens: z.number(),
    request_tokens: z.number(),
    compaction_due: z.boolean(),
    capped_messages: z.number().int(),
    left_out: z.number().int(),
    messages: list(modelMessage),
  })
  .openapi('AgentContext');
