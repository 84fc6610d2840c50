import { getJson } from '../api/client.ts';
import type { TurnTrace } from '../api/types.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Link } from '../components/Link.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { agentName } from '../i18n/agent-name.ts';
import { formatNumber } from '../i18n/format-number.ts';
import { t } from '../i18n/t.ts';
import { sessionPath } from '../routing/match-route.ts';

type Row = { kind: 'model' | 'tool'; key: string; start: number; end: number };

/**
 * One turn on a timeline (ADR 0411): its model calls (tokens, cached share, cost, latency, first token) and
 * tool calls (arguments, result or refusal, duration) as bars from the turn's start, the events it appended,
 * and the agent's prompt layers as assembled now. Built by the API from the log and `token_usage`.
 */
export function TurnTracePage({ sessionId, turnId }: { sessionId: string; turnId: string }) {
  const trace = useApiData(
    () => getJson('/api/sessions/{id}/turns/{turnId}/trace', { path: { id: sessionId, turnId } }),
    turnId,
  );
  const data = trace.data;
  return (
    <main className="page" data-testid="turn-trace-page">
      <Link to={sessionPath(sessionId)}>{t('trace.back')}</Link>
      {trace.error !== null && <ErrorMessage error={trace.error} />}
      {data !== null && <TraceBody trace={data} />}
    </main>
  );
}

function TraceBody({ trace }: { trace: TurnTrace }) {
  const origin = Date.parse(trace.started_at);
  const rows: Row[] = [
    ...trace.calls.map((call) => {
      const start = Date.parse(call.started_at) - origin;
      const end = call.settled_at === null ? start : Date.parse(call.settled_at) - origin;
      return { kind: 'model' as const, key: call.usage_id, start, end };
    }),
    ...trace.tools.map((tool) => ({
      kind: 'tool' as const,
      key: tool.tool_call_id,
      start: Date.parse(tool.started_at) - origin,
      end: Date.parse(tool.ended_at) - origin,
    })),
  ].sort((a, b) => a.start - b.start);
  const span = Math.max(1, ...rows.map((row) => row.end));
  const { totals } = trace;
  return (
    <>
      <h1>{t('trace.title', { agent: agentName(trace.agent) })}</h1>
      <p className="muted small" data-testid="trace-ids">
        {t('trace.ids', { turnId: trace.turn_id })}
      </p>
      <p data-testid="trace-status">{t('trace.status', { status: trace.status })}</p>
      <p data-testid="trace-totals">
        {t('trace.totals', {
          input: formatNumber(totals.input_tokens),
          cached: formatNumber(totals.cached_input_tokens),
          output: formatNumber(totals.output_tokens),
          cost: totals.cost_usd.toFixed(4),
        })}
        {totals.unpriced_calls > 0 && ` · ${t('trace.unpriced', { count: totals.unpriced_calls })}`}
      </p>
      <h2>{t('trace.timeline')}</h2>
      <ol className="trace-timeline" data-testid="trace-timeline">
        {rows.map((row) => (
          <li key={`${row.kind}:${row.key}`} className={`trace-row trace-${row.kind}`}>
            <div
              className="trace-bar"
              style={{
                marginLeft: `${(row.start / span) * 100}%`,
                width: `${Math.max(0.5, ((row.end - row.start) / span) * 100)}%`,
              }}
            />
            {row.kind === 'model' ? (
              <ModelCall call={trace.calls.find((call) => call.usage_id === row.key)!} />
            ) : (
              <ToolCall tool={trace.tools.find((tool) => tool.tool_call_id === row.key)!} />
            )}
          </li>
        ))}
      </ol>
      <PromptLayers sessionId={trace.session_id} agent={trace.agent} />
      <h2>{t('trace.events')}</h2>
      <ol className="trace-events muted small" data-testid="trace-events">
        {trace.events.map((event) => (
          <li key={event.seq}>
            #{event.seq} {event.type} · {event.actor} · {event.created_at}
          </li>
        ))}
      </ol>
    </>
  );
}

function ModelCall({ call }: { call: TurnTrace['calls'][number] }) {
  return (
    <div data-testid="trace-model-call" data-usage-id={call.usage_id}>
      <strong>{t('trace.modelCall', { model: `${call.provider}/${call.model}` })}</strong>
      <span className="muted small">
        {' '}
        {t('trace.modelCallFigures', {
          input: formatNumber(call.input_tokens),
          cached: formatNumber(call.cached_input_tokens),
          output: formatNumber(call.output_tokens),
          cost: call.cost_usd === null ? t('trace.noPrice') : call.cost_usd.toFixed(4),
          latency: call.latency_ms ?? '—',
          ttft: call.time_to_first_token_ms ?? '—',
        })}
      </span>
    </div>
  );
}

function ToolCall({ tool }: { tool: TurnTrace['tools'][number] }) {
  const duration = Date.parse(tool.ended_at) - Date.parse(tool.started_at);
  return (
    <details data-testid="trace-tool-call" data-tool={tool.tool} data-ok={String(tool.ok)}>
      <summary>
        <strong>{t('trace.toolCall', { tool: tool.tool })}</strong>{' '}
        <span className="muted small">
          {tool.ok ? t('trace.toolOk') : t('trace.toolRefused')} ·{' '}
          {t('trace.duration', { ms: duration })}
        </span>
      </summary>
      <p className="muted small">{t('trace.arguments')}</p>
      <pre>{tool.args}</pre>
      <p className="muted small">{t('trace.result')}</p>
      <pre>{tool.result}</pre>
      {tool.result_characters > tool.result.length && (
        <p className="muted small">
          {t('trace.resultCut', { shown: tool.result.length, total: tool.result_characters })}
        </p>
      )}
    </details>
  );
}

/** The agent's prompt layers and their tokens, as `forja context` shows them: assembled now, not stored. */
function PromptLayers({ sessionId, agent }: { sessionId: string; agent: string }) {
  const context = useApiData(
    () =>
      getJson('/api/sessions/{id}/agents/{slug}/context', { path: { id: sessionId, slug: agent } }),
    `${sessionId}:${agent}`,
  );
  return (
    <section data-testid="trace-prompt">
      <h2>{t('trace.prompt')}</h2>
      {context.error !== null && (
        <p className="muted small">
          {t('trace.promptUnavailable', {
            reason: context.error instanceof Error ? context.error.message : String(context.error),
          })}
        </p>
      )}
      <ul className="small">
        {(context.data?.layers ?? []).map((layer) => (
          <li key={layer.name}>
            {t('trace.promptLayer', { layer: layer.name, tokens: formatNumber(layer.tokens) })}
          </li>
        ))}
      </ul>
    </section>
  );
}
