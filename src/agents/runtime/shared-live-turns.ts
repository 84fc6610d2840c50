import type { Database } from '../../store/index.ts';
import type { LiveTurnListener, LiveTurnMessage, LiveTurns, PartialTurn } from './live-turns.ts';

/** The channel live turn messages cross processes on (ADR 0170). */
export const LIVE_TURNS_CHANNEL = 'forja_live_turns';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: each stays well under. */
const MAX_PAYLOAD_BYTES = 7_000;

/** How long deltas gather before they are sent: a burst of deltas is one notification. */
const DEFAULT_FLUSH_MS = 50;

/**
 * How often a process says again which sessions it has streams open on; a process that streams a turn sends
 * its messages to those announced within three of these (ADR 0264).
 */
const DEFAULT_WATCH_RENEW_MS = 10_000;

/**
 * A live message as it crosses processes: a delta `from_start` carries the turn's whole text so far, the catch-up
 * a process sends to one that just began to watch the session (it replaces what that one has of the turn).
 */
export type SharedLiveMessage =
  | Exclude<LiveTurnMessage, LiveDelta>
  | (LiveDelta & { from_start?: true });

type LiveDelta = Extract<LiveTurnMessage, { type: 'agent.delta' }>;

/** What crosses `forja_live_turns`: messages, an announcement of watched sessions, or a new process's hello. */
type LivePayload =
  | { origin: string; messages: SharedLiveMessage[] }
  | { origin: string; watch: string[]; catch_up: boolean }
  | { origin: string; hello: true };

/**
 * Consecutive deltas of one turn become one delta with their text joined; anything else keeps its place.
 * Pure, so a burst of N deltas is provably one message.
 */
export function coalesceLiveMessages(messages: readonly SharedLiveMessage[]): SharedLiveMessage[] {
  const out: SharedLiveMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (
      message.type === 'agent.delta' &&
      !('from_start' in message) &&
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
export function livePayloads(origin: string, messages: readonly SharedLiveMessage[]): string[] {
  const payloads: string[] = [];
  let batch: SharedLiveMessage[] = [];
  const encode = (list: SharedLiveMessage[]) => JSON.stringify({ origin, messages: list });
  const size = (list: SharedLiveMessage[]) => Buffer.byteLength(encode(list));
  const pieces = messages.flatMap((message) => {
    if (message.type !== 'agent.delta' || size([message]) < MAX_PAYLOAD_BYTES) return [message];
    const cut: SharedLiveMessage[] = [];
    // Characters, not bytes: 1,000 characters are at most 6,000 bytes once JSON-escaped.
    const characters = [...message.text];
    const { from_start: _fromStart, ...plain } = message;
    // Only the first piece of a catch-up starts the turn's text again; the others follow it.
    for (let start = 0; start < characters.length; start += 1_000)
      cut.push({
        ...(start === 0 ? message : plain),
        text: characters.slice(start, start + 1_000).join(''),
      });
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

/** Announcements of watched sessions as NOTIFY payloads under the size limit, each id in exactly one. */
export function watchPayloads(
  origin: string,
  sessionIds: readonly string[],
  catchUp: boolean,
): string[] {
  const payloads: string[] = [];
  const encode = (watch: string[]) => JSON.stringify({ origin, watch, catch_up: catchUp });
  let batch: string[] = [];
  for (const sessionId of sessionIds) {
    if (batch.length > 0 && Buffer.byteLength(encode([...batch, sessionId])) >= MAX_PAYLOAD_BYTES) {
      payloads.push(encode(batch));
      batch = [];
    }
    batch.push(sessionId);
  }
  if (batch.length > 0) payloads.push(encode(batch));
  return payloads;
}

/**
 * What a delta from process `from` does to the text this process keeps of its turn (`kept`, and who sent it),
 * ADR 0264: the text to keep, and what this process's streams lack of it; null for a piece to drop. A plain
 * delta adds to a turn followed from that process and is dropped otherwise (its start never came: the catch-up
 * asked for carries it); a catch-up (`from_start`) is the turn's whole text — the start of a turn, or of one
 * taken over by another process, or, for a turn already followed, only its unseen end goes to the streams.
 */
export function followRemoteDelta(
  kept: { origin: string; text: string } | undefined,
  from: string,
  delta: { text: string; from_start?: true },
): { keep: string; deliver: string } | null {
  const following = kept !== undefined && kept.origin === from;
  if (delta.from_start !== true)
    return following ? { keep: kept.text + delta.text, deliver: delta.text } : null;
  if (!following) return { keep: delta.text, deliver: delta.text };
  const lacking = delta.text.startsWith(kept.text) ? delta.text.slice(kept.text.length) : '';
  return { keep: delta.text, deliver: lacking };
}

/**
 * Live turn messages shared by every process on one server: what a turn streams here is published here and,
 * gathered for `flushMs` (an `agent.done` goes at once), sent as one NOTIFY — but only for a session another
 * process has a stream open on (ADR 0264): each process announces the sessions it watches when the first stream
 * of one opens and again every `watchRenewMs`, and one that begins to watch is sent the text of the turns running
 * here so far. What other processes send reaches this process's listeners and its partials, so a browser
 * connected anywhere sees a turn's text as it comes. A delta from a new origin for the same turn (a lane taken
 * over) starts that turn's partial text again.
 */
export async function shareLiveTurns(
  local: LiveTurns,
  database: Database,
  origin: string,
  options: { flushMs?: number; watchRenewMs?: number; onError?: (error: unknown) => void } = {},
): Promise<LiveTurns & { close(): Promise<void> }> {
  const watchRenewMs = options.watchRenewMs ?? DEFAULT_WATCH_RENEW_MS;
  const listeners = new Map<string, Set<LiveTurnListener>>();
  const remote = new Map<string, PartialTurn & { origin: string }>();
  const elsewhere = watchersElsewhere(watchRenewMs);
  /** Turns of this process whose messages went out: their end goes out too, watched or not. */
  const sharedTurns = new Set<string>();
  const outbox = liveOutbox(database, origin, options.flushMs ?? DEFAULT_FLUSH_MS, options.onError);
  const { send, flush } = outbox;

  const heardWatch = (from: string, sessionIds: readonly string[], catchUp: boolean) => {
    // A new watcher has none of the turns running here (or lost some): it gets each one's text so far.
    for (const sessionId of elsewhere.heard(from, sessionIds, catchUp))
      for (const partial of local.partials(sessionId)) {
        outbox.push({ type: 'agent.delta', ...partial, from_start: true });
        sharedTurns.add(partial.turn_id);
      }
  };
  const sayHello = () => void send([JSON.stringify({ origin, hello: true })]);
  const announce = (sessionIds: readonly string[], catchUp: boolean): Promise<void> =>
    sessionIds.length > 0 ? send(watchPayloads(origin, sessionIds, catchUp)) : Promise.resolve();
  /** Per watched session, the first announcement of it: settled once its NOTIFY was sent. */
  const announcements = new Map<string, Promise<void>>();

  const deliver = (sessionId: string, message: LiveTurnMessage) =>
    deliverTo(listeners.get(sessionId), message);
  const deliverRemote = (from: string, message: SharedLiveMessage) => {
    if (message.type !== 'agent.delta') {
      remote.delete(message.turn_id);
      return deliver(message.session_id, message);
    }
    const { from_start: _fromStart, ...delta } = message;
    const followed = followRemoteDelta(remote.get(delta.turn_id), from, message);
    if (followed === null) return;
    remote.set(delta.turn_id, { ...withoutType(delta), text: followed.keep, origin: from });
    if (followed.deliver.length > 0)
      deliver(delta.session_id, { ...delta, text: followed.deliver });
  };

  const unlisten = await database.listen(
    LIVE_TURNS_CHANNEL,
    (payload) => {
      try {
        const parsed = JSON.parse(payload) as LivePayload;
        if (parsed.origin === origin) return;
        if ('hello' in parsed) void announce([...listeners.keys()], false);
        else if ('watch' in parsed) heardWatch(parsed.origin, parsed.watch, parsed.catch_up);
        else for (const message of parsed.messages) deliverRemote(parsed.origin, message);
      } catch (error) {
        options.onError?.(error);
      }
    },
    {
      // Announcements and messages may have been missed: say hello again, and ask for the running turns again.
      restored: () => {
        sayHello();
        void announce([...listeners.keys()], true);
      },
    },
  );
  // Processes already watching sessions say so again to this one.
  sayHello();
  const renewal = setInterval(() => void announce([...listeners.keys()], false), watchRenewMs);
  renewal.unref();

  return {
    publish(message) {
      if (message.type === 'agent.delta') remote.delete(message.turn_id);
      local.publish(message);
      const shared = elsewhere.watched(message.session_id) || sharedTurns.has(message.turn_id);
      if (message.type === 'agent.done') {
        sharedTurns.delete(message.turn_id);
        if (!shared) return;
        return void outbox.push(message, { now: true });
      }
      if (!shared) return;
      if (sharedTurns.has(message.turn_id)) return outbox.push(message);
      // The first message of a turn that goes out carries its whole text so far.
      const partial = local
        .partials(message.session_id)
        .find((running) => running.turn_id === message.turn_id);
      sharedTurns.add(message.turn_id);
      outbox.push({ ...message, text: partial?.text ?? message.text, from_start: true });
    },
    subscribe(sessionId, listener) {
      const unsubscribeLocal = local.subscribe(sessionId, listener);
      const forSession = listeners.get(sessionId) ?? new Set();
      if (forSession.size === 0) announcements.set(sessionId, announce([sessionId], true));
      forSession.add(listener);
      listeners.set(sessionId, forSession);
      return () => {
        unsubscribeLocal();
        forSession.delete(listener);
        if (forSession.size > 0) return;
        listeners.delete(sessionId);
        announcements.delete(sessionId);
        // Unwatched, the session's turns are no longer sent here: what is kept of them would go stale.
        for (const [turnId, partial] of remote)
          if (partial.session_id === sessionId) remote.delete(turnId);
      };
    },
    announced: (sessionId) => announcements.get(sessionId) ?? Promise.resolve(),
    partials: (sessionId) => withRemotePartials(local.partials(sessionId), remote, sessionId),
    async close() {
      clearInterval(renewal);
      await flush();
      await unlisten();
    },
  };
}

/**
 * The messages this process sends: gathered for `flushMs` (or sent at once) and coalesced, then sent as NOTIFYs
 * in one chain, so they leave in the order sent whichever pooled connection sends them.
 */
function liveOutbox(
  database: Database,
  origin: string,
  flushMs: number,
  onError: ((error: unknown) => void) | undefined,
) {
  let pending: SharedLiveMessage[] = [];
  let timer: NodeJS.Timeout | null = null;
  let sending: Promise<void> = Promise.resolve();
  const send = (payloads: readonly string[]) => {
    for (const payload of payloads)
      sending = sending
        .then(() => database.query('select pg_notify($1, $2)', [LIVE_TURNS_CHANNEL, payload]))
        .then(
          () => undefined,
          (error: unknown) => onError?.(error),
        );
    return sending;
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const messages = coalesceLiveMessages(pending);
    pending = [];
    if (messages.length === 0) return sending;
    return send(livePayloads(origin, messages));
  };
  const push = (message: SharedLiveMessage, when: { now?: true } = {}) => {
    pending.push(message);
    if (when.now === true) return void flush();
    if (timer !== null) return;
    timer = setTimeout(() => void flush(), flushMs);
    timer.unref();
  };
  return { send, flush, push };
}

/**
 * The sessions other processes watch: for each, until when each watcher's last announcement holds (three
 * renewals). `heard` records an announcement and returns the sessions whose watcher is new (or asked to catch
 * up): they are to be sent the text of the turns running here so far.
 */
function watchersElsewhere(watchRenewMs: number) {
  const sessions = new Map<string, Map<string, number>>();
  return {
    watched(sessionId: string): boolean {
      const watchers = sessions.get(sessionId);
      if (watchers === undefined) return false;
      const now = Date.now();
      for (const [watcher, until] of watchers) if (until <= now) watchers.delete(watcher);
      if (watchers.size === 0) sessions.delete(sessionId);
      return watchers.size > 0;
    },
    heard(from: string, sessionIds: readonly string[], catchUp: boolean): string[] {
      const until = Date.now() + 3 * watchRenewMs;
      return sessionIds.filter((sessionId) => {
        const watchers = sessions.get(sessionId) ?? new Map<string, number>();
        const known = (watchers.get(from) ?? 0) > Date.now();
        watchers.set(from, until);
        sessions.set(sessionId, watchers);
        return !known || catchUp;
      });
    },
  };
}

/** Gives `message` to each listener; a broken stream must not break the others. */
function deliverTo(
  listeners: Iterable<LiveTurnListener> | undefined,
  message: LiveTurnMessage,
): void {
  for (const listener of listeners ?? []) {
    try {
      listener(message);
    } catch {
      // Nothing to do: that stream's own close cleans it up.
    }
  }
}

/** This process's partial turns of the session, then those followed from other processes it does not run. */
function withRemotePartials(
  fromHere: PartialTurn[],
  remote: ReadonlyMap<string, PartialTurn & { origin: string }>,
  sessionId: string,
): PartialTurn[] {
  const here = new Set(fromHere.map((partial) => partial.turn_id));
  const fromElsewhere = [...remote.values()]
    .filter((partial) => partial.session_id === sessionId && !here.has(partial.turn_id))
    .map(({ origin: _origin, ...partial }) => partial);
  return [...fromHere, ...fromElsewhere];
}

function withoutType(message: LiveTurnMessage & { type: 'agent.delta' }): PartialTurn {
  return {
    session_id: message.session_id,
    agent: message.agent,
    turn_id: message.turn_id,
    text: message.text,
  };
}
