/** Shapes the Forja API answers with (see GET /api/openapi.json). The web talks to the API only. */

export type Project = { id: string; name: string; created_at: string };

export type Person = { id: string; username: string };

/** `accounts: false`: Forja runs on loopback without accounts and nobody signs in. */
export type Me = { accounts: boolean; person: Person | null };

export type Member = { person_id: string; username: string; role: 'owner' | 'member' };

export type Session = {
  id: string;
  project_id: string;
  title: string | null;
  last_seq: number;
  created_at: string;
};

/** A stored session event; `payload` is read defensively because event types evolve. */
export type StoredEvent = {
  id: string;
  session_id: string;
  seq: number;
  type: string;
  actor: string;
  payload: unknown;
  created_at: string;
};

export type ModelStatus =
  | { configured: true; provider: string; model: string }
  | { configured: false; message: string };

/** `GET /api/health`: the model part is the server's last look at the model endpoint. */
export type Health = {
  status: 'ok';
  version: string;
  model: {
    configured: boolean;
    provider: string | null;
    model: string | null;
    target: string | null;
    reachable: boolean | null;
    checked_at: string | null;
    reason: string | null;
  };
};

/** The part of `GET /api/sessions/:id/state` the page reads; everything else is folded from events. */
export type SessionState = { model?: ModelStatus };

export type UsageLine = {
  agent: string;
  provider: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  estimated_calls: number;
  failed_calls: number;
  refused_calls: number;
  /** Calls cut off because their Forja process stopped mid-answer; their tokens count as spent. */
  interrupted_calls: number;
  interrupted_tokens: number;
};

export type Usage = {
  total_tokens: number;
  reserved_tokens: number;
  max_tokens?: number | null;
  by_agent_and_model: UsageLine[];
};

/** `GET /api/projects/:id/commits/:sha/diff`: a commit and its diff against its first parent. */
export type CommitDiff = {
  sha: string;
  parents: string[];
  author: string;
  date: string;
  subject: string;
  body: string;
  files: Array<{
    path: string;
    old_path: string | null;
    additions: number | null;
    deletions: number | null;
  }>;
  files_truncated: boolean;
  patch: string;
  truncated: boolean;
  max_bytes: number;
};

export type Handoff = {
  id: string;
  session_id: string;
  from_agent: string;
  to_agent: string;
  artifact_id: string | null;
  status: string;
};

/** Live messages of a running turn (not stored, never replayed). */
export type AgentDelta = { session_id: string; agent: string; turn_id: string; text: string };
export type AgentDone = { session_id: string; agent: string; turn_id: string; status: string };
