import type { components } from './openapi.gen.ts';

/**
 * Shapes the Forja API answers with, taken from the types `npm run gen:api` generates from the server's
 * OpenAPI document (GET /api/openapi.json; decision 0230), so a changed route schema is a type error here,
 * not a silent copy going stale. The web talks to the API only.
 */
type Schemas = components['schemas'];

export type Project = Schemas['Project'];

export type Person = Schemas['Person'];

/**
 * `accounts: false`: Forja runs on loopback without accounts and nobody signs in. The document gives `person`
 * as `allOf [Person, object | null]` (how a nullable named schema is written), which TypeScript cannot read as
 * "a Person or null"; it is said here.
 */
export type Me = Omit<Schemas['Me'], 'person'> & { person: Person | null };

export type Member = Schemas['Member'];

export type Session = Schemas['Session'];

/** A session event as the document gives it: a union on `type`, so `payload` narrows by kind (ADR 0423). */
export type SessionEvent = Schemas['SessionEvent'];

/**
 * A session event as the web takes it in: any kind, its payload not yet read. The fold reads each payload by its
 * kind's schema (fold-event.ts, ADR 0400) rather than trusting the type: an event of a newer server, or one an
 * older server wrote, is skipped or counted, never read as something it is not.
 */
export type StoredEvent = Omit<SessionEvent, 'type' | 'payload'> & {
  type: string;
  payload: unknown;
};

/** `GET /api/health`: the model part is the server's last look at the model endpoint. */
export type Health = Schemas['Health'];

export type Usage = Schemas['Usage'];

export type UsageLine = Usage['by_agent_and_model'][number];

export type Handoff = Schemas['Handoff'];

/** `GET /api/sessions/:id/idle-lanes`: a dev lane idle while its module is unfinished. */
export type IdleLane = Schemas['IdleLane'];

/** `GET /api/projects/:id/commits/:sha/diff`: a commit and its diff against its first parent. */
export type CommitDiff = Schemas['CommitDiff'];

/** Which model serves the session's calls: `GET /api/sessions/:id/state`'s `model`. */
export type ModelStatus = Schemas['ModelStatus'];

/** One agent kind's model in the session state's `models`. */
export type AgentModel = Schemas['AgentModel'];

export type SessionState = Schemas['SessionState'];

/** `GET /api/sessions/:id/line`: each module's state on the line, the line's end and its merge into main. */
export type SessionLine = Schemas['SessionLine'];

/** Live messages of a running turn on the event stream (not stored, never replayed; the document says only "an event stream"). */
export type AgentDelta = { session_id: string; agent: string; turn_id: string; text: string };
export type AgentDone = { session_id: string; agent: string; turn_id: string; status: string };
export type TurnTrace = Schemas['TurnTrace'];
