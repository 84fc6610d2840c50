import type { Database } from '../../store/index.ts';
import type { LiveTurnListener, LiveTurnMessage, LiveTurns, PartialTurn } from './live-turns.ts';

/** The channel live turn messages cross processes on (ADR 0170). */
export const LIVE_TURNS_CHANNEL = 'forja_live_turns';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: each stays well under. */
const MAX_PAYLOAD_BYTES = 7_000;

/** How long deltas gather before they are sent: a burst of deltas is one notification. */
const DEFAULT_FLUSH_MS = 50;

/**
 * Consecutive deltas of one turn become one delta with their text joined; anything else keeps its place.
 * Pure, so a burst of N deltas is provably one message.
 */
export function coalesceLiveMessages(messages: readonly LiveTurnMessage[]): LiveTurnMessage[] {
  const out: LiveTurnMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (
      message.type === 'agent.delta' &&
      last?.type === 'agent.delta' &&
      last.turn_id === message.turn_id &&
      last.session_id === message.session_id
    )
      out[out.length - 1] = { ...last, text: last.text + message.text };
    else out.push(message);
  }
  return out;
}

/** The messages as NOTIFY payloads under the size limit; a long text is cut across several deltas. */
export function livePayloads(origin: string, messages: readonly LiveTurnMessage[]): string[] {
  const payloads: string[] = [];
  let batch: LiveTurnMessage[] = [];
  const encode = (list: LiveTurnMessage[]) => JSON.stringify({ origin, messages: list });
  const size = (list: LiveTurnMessage[]) => Buffer.byteLength(encode(list));
  const pieces = messages.flatMap((message) => {
    if (message.type !== 'agent.delta' || size([message]) < MAX_PAYLOAD_BYTES) return [message];
    const cut: LiveTurnMessage[] = [];
    // Characters, not bytes: 1,000 characters are at most 6,000 bytes once JSON-escaped.
    const characters = [...message.text];
    for (let start = 0; start < characters.length; start += 1_000)
      cut.push({ ...message, text: characters.slice(start, start + 1_000).join('') });
    return cut;
  });
  for (const piece of pieces) {
    if (batch.length > 0 && size([...batch, piece]) >= MAX_PAYLOAD_BYTES) {
      payloads.push(encode(batch));
      batch = [];
    }
    batch.push(piece);
  }
  if (batch.length > 0) payloads.push(encode(batch));
  return payloads;
}

/**
 * Live turn messages shared by every process on one server: what a turn streams here is published here and,
 * gathered for `flushMs` (an `agent.done` goes at once), sent as one NOTIFY; what other processes send reaches
 * this process's listeners and its partials, so a browser connected anywhere sees a turn's text as it comes.
 * A delta from a new origin for the same turn (a lane taken over) starts that turn's partial text again.
 */
export async function shareLiveTurns(
  local: LiveTurns,
  database: Database,
  origin: string,
  options: { flushMs?: number; onError?: (error: unknown) => void } = {},
): Promise<LiveTurns & { close(): Promise<void> }> {
  const flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
  const listeners = new Map<string, Set<LiveTurnListener>>();
  const remote = new Map<string, PartialTurn & { origin: string }>();
  let pending: LiveTurnMessage[] = [];
  let timer: NodeJS.Timeout | null = null;
  let sending: Promise<void> = Promise.resolve();

  const deliverRemote = (from: string, message: LiveTurnMessage) => {
    if (message.type === 'agent.delta') {
      const partial = remote.get(message.turn_id);
      if (partial && partial.origin === from) partial.text += message.text;
      else remote.set(message.turn_id, { ...withoutType(message), origin: from });
    } else remote.delete(message.turn_id);
    for (const listener of listeners.get(message.session_id) ?? []) {
      try {
        listener(message);
      } catch {
        // A broken stream must not break the others.
      }
    }
  };
  const unlisten = await database.listen(LIVE_TURNS_CHANNEL, (payload) => {
    try {
      const parsed = JSON.parse(payload) as { origin: string; messages: LiveTurnMessage[] };
      if (parsed.origin === origin) return;
      for (const message of parsed.messages) deliverRemote(parsed.origin, message);
    } catch (error) {
      options.onError?.(error);
    }
  });

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const messages = coalesceLiveMessages(pending);
    pending = [];
    if (messages.length === 0) return sending;
    // One chain: notifications leave in the order published, whichever pooled connection sends them.
    for (const payload of livePayloads(origin, messages))
      sending = sending
        .then(() => database.query('select pg_notify($1, $2)', [LIVE_TURNS_CHANNEL, payload]))
        .then(
          () => undefined,
          (error: unknown) => options.onError?.(error),
        );
    return sending;
  };

  return {
    publish(message) {
      if (message.type === 'agent.delta') remote.delete(message.turn_id);
      local.publish(message);
      pending.push(message);
      if (message.type === 'agent.done') void flush();
      else if (timer === null) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref();
      }
    },
    subscribe(sessionId, listener) {
      const unsubscribeLocal = local.subscribe(sessionId, listener);
      const forSession = listeners.get(sessionId) ?? new Set();
      forSession.add(listener);
      listeners.set(sessionId, forSession);
      return () => {
        unsubscribeLocal();
        forSession.delete(listener);
        if (forSession.size === 0) listeners.delete(sessionId);
      };
    },
    partials(sessionId) {
      const fromHere = local.partials(sessionId);
      const here = new Set(fromHere.map((partial) => partial.turn_id));
      const fromElsewhere = [...remote.values()]
        .filter((partial) => partial.session_id === sessionId && !here.has(partial.turn_id))
        .map(({ origin: _origin, ...partial }) => partial);
      return [...fromHere, ...fromElsewhere];
    },
    async close() {
      await flush();
      await unlisten();
    },
  };
}

function withoutType(message: LiveTurnMessage & { type: 'agent.delta' }): PartialTurn {
  return {
    session_id: message.session_id,
    agent: message.agent,
    turn_id: message.turn_id,
    text: message.text,
  };
}
