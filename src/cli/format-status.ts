import type { ForjaStatus } from '../store/index.ts';

/** Where the status was read from, as the person configured it. */
export interface StatusSource {
  description: string;
  dataDirectory?: string;
}

/** `forja status` as readable text: processes, outbox, reservations, then each session with work. */
export function formatStatus(status: ForjaStatus, source: StatusSource): string {
  const lines: string[] = [
    `Forja status — ${source.description}`,
    `checked at ${status.checked_at}`,
  ];
  if (status.database === 'pglite')
    lines.push(
      `No Forja process runs on ${source.dataDirectory ?? 'this data directory'} (its lock was free).`,
    );

  lines.push('', 'Processes');
  if (status.processes.length === 0 && status.stopped_cleanly.length === 0)
    lines.push('  none registered');
  for (const process of status.processes)
    lines.push(
      `  pid ${process.pid} on ${process.host}, started ${process.started_at}, last seen ${ago(process.silent_ms)} — ` +
        (process.alive
          ? 'alive'
          : status.database === 'pglite'
            ? 'not running: it stopped without a clean exit (killed or crashed)'
            : 'not running (no heartbeat: killed, crashed or stalled)'),
      ...modelLines(process.models),
    );
  for (const exit of status.stopped_cleanly)
    lines.push(
      `  pid ${exit.pid} on ${exit.host}, started ${exit.started_at} — stopped cleanly at ${exit.stopped_at}`,
    );

  lines.push('', 'Outbox');
  if (status.outbox.pending === 0) lines.push('  nothing pending');
  else {
    lines.push(
      `  ${count(status.outbox.pending, 'row')} pending, the oldest waiting ${duration(status.outbox.oldest_pending_age_ms ?? 0)}` +
        (status.outbox.retrying > 0 ? `, ${status.outbox.retrying} waiting for a retry` : ''),
    );
    for (const row of status.outbox.by_type)
      lines.push(
        `    ${row.aggregate_type}: ${row.pending} pending, oldest ${duration(row.oldest_pending_age_ms)}`,
      );
  }

  lines.push('', 'Reserved tokens');
  lines.push(
    status.reserved.calls === 0
      ? '  none (no model call open)'
      : `  ${count(status.reserved.calls, 'model call')} open, holding ${status.reserved.tokens} tokens`,
  );

  lines.push(
    '',
    `Sessions: ${status.sessions.length} with work, ${status.idle_sessions} idle`,
    ...(status.database === 'pglite'
      ? ['  lanes: all run by the process that holds the data directory']
      : []),
  );
  for (const session of status.sessions) {
    lines.push(
      `  ${session.session_id}${session.title === null ? '' : ` "${session.title}"`} (project ${session.project_id})`,
    );
    if (session.unanswered_messages > 0)
      lines.push(`    messages waiting for a turn: ${session.unanswered_messages}`);
    if (session.pending_kickoffs.length > 0)
      lines.push(`    kickoffs owed: ${session.pending_kickoffs.join(', ')}`);
    for (const turn of session.turns_in_progress)
      lines.push(`    turn in progress: ${turn.agent} (${turn.kind}, since ${turn.started_at})`);
    for (const lease of session.lane_owners ?? [])
      lines.push(
        `    lane ${lease.lane}: held by ${lease.pid === null ? `process ${lease.owner}` : `pid ${lease.pid}`} (epoch ${lease.epoch}, until ${lease.expires_at})`,
      );
    if (session.reserved_calls > 0)
      lines.push(
        `    reserved: ${count(session.reserved_calls, 'model call')}, ${session.reserved_tokens} tokens`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** A process's models, one line per model with the agents it serves: `dev → openai:qwen2.5 (FORJA_MODEL_DEV)`. */
function modelLines(models: ForjaStatus['processes'][number]['models']): string[] {
  const byModel = new Map<string, string[]>();
  for (const entry of models) {
    const model =
      entry.provider === null || entry.model === null
        ? `no model (${entry.variable})`
        : `${entry.provider}:${entry.model} (${entry.variable})`;
    byModel.set(model, [...(byModel.get(model) ?? []), entry.agent]);
  }
  return [...byModel].map(([model, agents]) => `    ${agents.join(', ')} → ${model}`);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function ago(ms: number): string {
  return `${duration(ms)} ago`;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}
