import { z } from 'zod';

const v1 = z.literal(1);

/** `turn.stopped` — the person stopped the turn; `text` is what it had streamed (kept as its partial answer). */
export const TurnStoppedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  text: z.string(),
  /** Who pressed Stop. */
  by: z.string().min(1),
});

/** `turn.stop_requested` — Stop pressed in a process that does not run the turn; its runner stops it. */
export const TurnStopRequestedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  by: z.string().min(1),
});

/** `turn.retried` — the failed turn `turn_id` is in progress again, from where its events left it. */
export const TurnRetriedPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  by: z.string().min(1),
});

/**
 * `answer.superseded` — the answer `event_id` (an `agent.response`, or a `turn.stopped` with text) of the lane's
 * last turn `turn_id` leaves the history; the `turn.started` appended with it answers again (`regenerates`).
 */
export const AnswerSupersededPayloadSchema = z.object({
  v: v1,
  agent: z.string().min(1),
  turn_id: z.string().min(1),
  event_id: z.string().min(1),
  by: z.string().min(1),
});

export type TurnStoppedPayload = z.infer<typeof TurnStoppedPayloadSchema>;
export type TurnRetriedPayload = z.infer<typeof TurnRetriedPayloadSchema>;
export type AnswerSupersededPayload = z.infer<typeof AnswerSupersededPayloadSchema>;
