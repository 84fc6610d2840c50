import { greetingLanguage } from '../../domain/conversation/index.ts';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  AGENT_SLUG_PATTERN,
  MAX_REJECTION_REASON_CHARACTERS,
} from '../../domain/handoffs/index.ts';
import type { Refusal } from '../../conversation/index.ts';
import { decisionsByHandoff, MAX_ANSWER_CHARACTERS } from '../../domain/conversation/index.ts';
import { findSession, listHandoffs } from '../../store/index.ts';
import { actorOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import {
  errorResponses,
  idParameter,
  jsonBody,
  jsonContent,
  noBody,
  optionalJsonBody,
  SessionEventSchema,
  text,
} from '../schemas.ts';
import { HandoffSchema } from '../view-schemas.ts';

/** A decision the handoff's sender made by itself: accepting the handoff accepts it. */
const HandoffDecisionSchema = z
  .object({
    seq: z.number().int(),
    question: z.string(),
    answer: z.string(),
    reason: z.string(),
    decided_by: z.string(),
  })
  .openapi('HandoffDecision');
const ListedHandoffSchema = HandoffSchema.extend({
  decisions: z.array(HandoffDecisionSchema),
}).openapi('ListedHandoff');
export const ReasonSchema = z
  .strictObject({
    reason: text()
      .max(
        MAX_REJECTION_REASON_CHARACTERS,
        `must be at most ${MAX_REJECTION_REASON_CHARACTERS} characters`,
      )
      .optional(),
  })
  .openapi('Reason');
/** Why the person rejects a handoff: required, since its sender is given it to act on (ADR 0160). */
export const RejectionSchema = z
  .strictObject({
    reason: text()
      .refine((reason) => reason.trim().length > 0, 'must not be empty')
      .pipe(
        z
          .string()
          .max(
            MAX_REJECTION_REASON_CHARACTERS,
            `must be at most ${MAX_REJECTION_REASON_CHARACTERS} characters`,
          ),
      ),
  })
  .openapi('Rejection');
/** The person's answer to an agent's question: the answer, or `decide_yourself: true` (the agent decides). */
export const QuestionAnswerSchema = z
  .strictObject({
    answer: text()
      .refine((answer) => answer.trim().length > 0, 'must not be empty')
      .pipe(
        z
          .string()
          .max(MAX_ANSWER_CHARACTERS, `must be at most ${MAX_ANSWER_CHARACTERS} characters`),
      )
      .optional(),
    decide_yourself: z
      .literal(true, { error: 'must be true (leave the decision to the agent)' })
      .optional(),
  })
  .superRefine((body, context) => {
    if (body.answer === undefined && body.decide_yourself === undefined)
      context.addIssue({
        code: 'custom',
        path: ['answer'],
        message: 'must not be empty: give an answer, or decide_yourself: true',
      });
    if (body.answer !== undefined && body.decide_yourself !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['decide_yourself'],
        message: 'must not come with an answer: answer, or leave the decision to the agent',
      });
  })
  .openapi('QuestionAnswer');
const idOnly = z.object({ id: idParameter('id') });
const questionParameters = z.object({
  id: idParameter('id'),
  questionId: idParameter('questionId'),
});
const answerQuestion = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/questions/{questionId}/answer',
  summary:
    "Answer an agent's question (ask_person), or leave it to the agent with decide_yourself: the agent's turn goes on with it",
  request: { params: questionParameters, body: jsonBody(QuestionAnswerSchema) },
  responses: {
    202: jsonContent(
      z.object({ question_id: z.string(), agent: z.string() }),
      'Recorded; the agent goes on with the answer',
    ),
    ...errorResponses(400, 404, 409, 413, 415),
  },
});
const withSlug = z.object({
  id: idParameter('id'),
  slug: z
    .string()
    .regex(AGENT_SLUG_PATTERN, `must be an agent slug (${AGENT_SLUG_PATTERN.source})`)
    .openapi({ param: { name: 'slug', in: 'path' } }),
});

const startAgent = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/agents/{slug}/start',
  summary:
    "Start an agent in the session (Criativo by the person; any other only by an accepted handoff addressed to it). Criativo's agent.activated carries its greeting, in the language Accept-Language prefers (en or pt; en by default)",
  request: { params: withSlug, body: noBody },
  responses: {
    201: jsonContent(SessionEventSchema, 'agent.activated'),
    ...errorResponses(400, 404, 409, 413, 415),
  },
});
const readiness = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/readiness',
  summary: '"I\'m ready to produce": consolidate the product brief and offer a handoff to the PO',
  description:
    'Readiness is checked at once (a refusal is a 409 or 503 here); the consolidation turn then runs in the background and ' +
    'the answer is 202 with its turn id: the brief (`artifact.product_brief`) and the handoff (`handoff.offered`) arrive as ' +
    "events, or the turn's `turn.failed`. `?wait=true` waits for them instead and answers 201 with both (or the model's failure).",
  request: {
    params: idOnly,
    query: z.object({
      wait: z.enum(['true', 'false']).optional().openapi({
        description:
          'true: answer when the brief is recorded (201), not when its turn starts (202)',
      }),
    }),
    body: noBody,
  },
  responses: {
    201: jsonContent(
      z.object({ brief: SessionEventSchema, handoff: HandoffSchema }),
      'With ?wait=true: the brief and the offered handoff',
    ),
    202: jsonContent(
      z.object({ turn_id: z.string() }),
      'Readiness recorded; the consolidation turn started (its events follow on the stream)',
    ),
    ...errorResponses(400, 404, 409, 413, 415, 503),
    502: jsonContent(
      z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
      'The model failed or gave an invalid brief',
    ),
  },
});
const listSessionHandoffs = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/handoffs',
  summary: "The session's handoffs, oldest first",
  request: { params: idOnly },
  responses: {
    200: jsonContent(
      z.object({ handoffs: z.array(ListedHandoffSchema) }),
      'Handoffs, each with the decisions its sender made by itself',
    ),
    ...errorResponses(400, 404),
  },
});
const handoffRoute = (verb: 'accept' | 'reject' | 'complete') =>
  createRoute({
    method: 'post',
    path: `/api/handoffs/{id}/${verb}`,
    summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a handoff (409 with the reason when the transition is invalid)`,
    request: { params: idOnly, body: verb === 'reject' ? jsonBody(RejectionSchema) : noBody },
    responses: {
      200: jsonContent(HandoffSchema, 'The handoff now'),
      ...errorResponses(400, 404, 409, 413, 415),
    },
  });
const actionRoute = (verb: 'approve' | 'deny') =>
  createRoute({
    method: 'post',
    path: `/api/actions/{id}/${verb}`,
    summary:
      verb === 'approve'
        ? 'Approve a proposed action: it runs and the agent goes on'
        : 'Deny a proposed action: the agent is told, with the reason',
    request: { params: idOnly, body: verb === 'deny' ? optionalJsonBody(ReasonSchema) : noBody },
    responses: {
      202: jsonContent(
        z.object({ action_id: z.string(), status: z.enum(['approved', 'denied']) }),
        'Recorded; the agent resumes',
      ),
      ...errorResponses(400, 404, 409, 413, 415),
    },
  });

/** A use case's refusal as its status and JSON error. Typed loosely: the status is only known at run time. */
function refused(context: Context, outcome: Refusal): never {
  return context.json(apiError(outcome.code, outcome.message), outcome.status) as never;
}

export function conversationRoutes({ database, conversation, logger }: AppDependencies) {
  const app = newRouter()
    .openapi(startAgent, async (context) => {
      const { id, slug } = context.req.valid('param');
      const language = greetingLanguage(context.req.header('accept-language'));
      const outcome = await conversation.startAgent(id, slug, actorOf(context), language);
      return outcome.ok ? context.json(outcome.event, 201) : refused(context, outcome);
    })
    .openapi(readiness, async (context) => {
      const id = context.req.valid('param').id;
      const started = Promise.withResolvers<{ turnId: string }>();
      const outcome = conversation.confirmReadiness(id, actorOf(context), {
        onStarted: (turnId) => started.resolve({ turnId }),
      });
      // A refusal comes before the turn starts; after it, the answer does not wait for the model.
      const first =
        context.req.valid('query').wait === 'true'
          ? await outcome
          : await Promise.race([started.promise, outcome]);
      if ('turnId' in first) {
        outcome.catch((error: unknown) => logger.error({ err: error }, 'the consolidation failed'));
        return context.json({ turn_id: first.turnId }, 202);
      }
      return first.ok
        ? context.json({ brief: first.brief, handoff: first.handoff }, 201)
        : refused(context, first);
    })
    .openapi(answerQuestion, async (context) => {
      const { id, questionId } = context.req.valid('param');
      const { answer } = context.req.valid('json');
      const outcome = await conversation.answerQuestion(
        id,
        questionId,
        answer === undefined ? { decide_yourself: true } : { answer },
        actorOf(context),
      );
      return outcome.ok
        ? context.json({ question_id: outcome.question_id, agent: outcome.agent }, 202)
        : refused(context, outcome);
    })
    .openapi(listSessionHandoffs, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findSession(database, id)))
        return context.json(apiError('not_found', `No session with id ${id}.`, 'id'), 404);
      const [handoffs, view] = await Promise.all([
        listHandoffs(database, id),
        conversation.views.load(id),
      ]);
      const decisions = decisionsByHandoff(view.events);
      return context.json(
        {
          handoffs: handoffs.map((handoff) => ({
            ...handoff,
            decisions: [...(decisions.get(handoff.id) ?? [])],
          })),
        },
        200,
      );
    });
  for (const verb of ['accept', 'reject', 'complete'] as const) {
    app.openapi(handoffRoute(verb), async (context) => {
      const { id } = context.req.valid('param');
      // A rejection goes back to its sender with the reason (a turn in its lane, started by the service).
      const command =
        verb === 'reject'
          ? {
              type: 'reject' as const,
              actor: actorOf(context),
              reason: (context.req.valid('json' as never) as { reason: string }).reason,
            }
          : { type: verb, actor: actorOf(context) };
      const outcome = await conversation.transitionHandoff(id, command);
      return outcome.ok ? context.json(outcome.handoff, 200) : refused(context, outcome);
    });
  }
  for (const verb of ['approve', 'deny'] as const) {
    app.openapi(actionRoute(verb), async (context) => {
      const { id } = context.req.valid('param');
      const reason =
        verb === 'deny'
          ? (context.req.valid('json' as never) as { reason?: string } | undefined)?.reason
          : undefined;
      const outcome = await conversation.resolveAction(
        id,
        verb === 'approve'
          ? { approve: true }
          : { approve: false, ...(reason === undefined ? {} : { reason }) },
        actorOf(context),
      );
      return outcome.ok
        ? context.json(
            {
              action_id: id,
              status: verb === 'approve' ? ('approved' as const) : ('denied' as const),
            },
            202,
          )
        : refused(context, outcome);
    });
  }
  return app;
}
