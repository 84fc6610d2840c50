import type { ChatHistoryEntry } from '../../../domain/conversation/index.ts';
import type { GatewayTurnOutcome, ModelGateway, ModelMessage } from '../../../gateway/index.ts';
import { contextMarginTokens, type Tokenizer } from '../../../harness/index.ts';
import { messageTokens } from './render-history-entry.ts';

/** The ContextManager's own slug: its calls are metered under it, naming the agent they are for. */
export const CONTEXT_MANAGER_AGENT = 'context-manager';

/** The summary instruction when templates are off or none is seeded (the seeded template says the same). */
export const INLINE_SUMMARY_INSTRUCTION = [
  'Resuma a conversa acima para que ela continue sem perder o fio:',
  'decisões tomadas, regras de negócio confirmadas, fatos que a pessoa contou, perguntas em aberto e o próximo passo.',
  'Cite os #seq das mensagens de onde cada ponto veio. Não invente nada que não esteja na conversa.',
].join('\n');

/** What a dev's summary must keep: the state of its work, which its next calls build on. */
export const DEV_SUMMARY_FOCUS =
  'Este agente é um dev: o resumo lista os arquivos que ele escreveu (caminhos), as tarefas feitas e as que faltam, os resultados dos checks (o que falhou e por quê), os bloqueios abertos e os contratos em vigor.';
/** The share of the summarising call's room the agent's own system prompt may take. */
const AGENT_CONTEXT_SHARE = 0.25;

const SUMMARIZER_SYSTEM =
  'Você é o context-manager da Forja: resume conversas longas de um agente sem perder decisões nem fatos.';

/**
 * Where the summary instruction comes from: composition resolves the seeded `context-manager-summarize`
 * template when `graph_templates_enabled` is on, else `INLINE_SUMMARY_INSTRUCTION` (agents import no memory).
 */
export interface SummaryTemplates {
  instruction(): Promise<{ text: string; source: 'graph' | 'inline' }>;
}

export interface SummaryRequest {
  projectId: string;
  sessionId: string;
  /** The agent whose history is summarised (`token_usage.on_behalf_of`). */
  agent: string;
  previousSummary: string | null;
  /** The agent's system prompt as its next call sends it (task state, blocks, contracts in force). */
  agentSystem?: string;
  /** The entries to fold into the summary, oldest first. */
  entries: readonly ChatHistoryEntry[];
  windowTokens: number;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export type SummaryOutcome =
  | { ok: true; summary: string; omitted: number; usageId: string; instruction: 'graph' | 'inline' }
  | { ok: false; reason: string; message: string };

/**
 * One summarising call through the metered gateway as `context-manager`. The previous summary and the entries
 * are written out as a transcript with their `#seq`, newest kept first when they do not all fit this call's
 * own window (`omitted` counts those left out, oldest first, so nothing is lost without a trace).
 */
export async function summarizeHistory(
  gateway: ModelGateway,
  templates: SummaryTemplates,
  tokenizer: Tokenizer,
  request: SummaryRequest,
): Promise<SummaryOutcome> {
  const resolved = await templates.instruction();
  const previous = `${agentContext(request)}${
    request.previousSummary === null
      ? ''
      : `Resumo anterior (até aqui):\n${request.previousSummary}\n\n`
  }`;
  const instruction = request.agent.startsWith('dev:')
    ? `${resolved.text}\n${DEV_SUMMARY_FOCUS}`
    : resolved.text;
  const fixed =
    tokenizer.count(SUMMARIZER_SYSTEM).tokens +
    messageTokens({ role: 'user', content: `${previous}Conversa:\n\n${instruction}` }, tokenizer);
  let room =
    request.windowTokens -
    fixed -
    request.maxOutputTokens -
    contextMarginTokens(request.windowTokens);
  const lineCap = Math.max(32, Math.floor(room / 4));
  const lines: string[] = [];
  let index = request.entries.length - 1;
  for (; index >= 0; index -= 1) {
    const line = transcriptLine(request.entries[index]!, lineCap * 4);
    const cost = tokenizer.count(JSON.stringify(line)).tokens + 1;
    if (cost > room) break;
    room -= cost;
    lines.push(line);
  }
  const omitted = index + 1;
  if (lines.length === 0 && request.entries.length > 0)
    return {
      ok: false,
      reason: 'window_too_small',
      message: 'not one message fits the summarising call',
    };
  lines.reverse();
  const note =
    omitted > 0
      ? `[${omitted} mensagens mais antigas não couberam nesta chamada e ficaram de fora do resumo]\n`
      : '';
  const content = `${previous}Conversa:\n${note}${lines.join('\n')}\n\n${instruction}`;
  const messages: ModelMessage[] = [{ role: 'user', content }];
  const outcome: GatewayTurnOutcome = await gateway.runTurn(
    {
      projectId: request.projectId,
      sessionId: request.sessionId,
      agent: CONTEXT_MANAGER_AGENT,
      onBehalfOf: request.agent,
      system: SUMMARIZER_SYSTEM,
      messages,
      tools: [],
      maxOutputTokens: request.maxOutputTokens,
      inputTokens:
        tokenizer.count(SUMMARIZER_SYSTEM).tokens + messageTokens(messages[0]!, tokenizer),
    },
    request.signal ? { signal: request.signal } : {},
  );
  if (outcome.status !== 'completed')
    return {
      ok: false,
      reason: outcome.status,
      message: 'message' in outcome ? outcome.message : 'the summarising call was cancelled',
    };
  const summary = outcome.text.trim();
  if (summary === '')
    return { ok: false, reason: 'empty_summary', message: 'the summarising call answered no text' };
  return { ok: true, summary, omitted, usageId: outcome.usageId, instruction: resolved.source };
}

/**
 * What the agent already has in its system prompt (its task state, open blocks, contracts), so the summary
 * knows what is in force and need not repeat it; cut to a share of the call's window.
 */
function agentContext(request: SummaryRequest): string {
  if (request.agentSystem === undefined || request.agentSystem === '') return '';
  const maxCharacters = Math.floor(request.windowTokens * AGENT_CONTEXT_SHARE) * 4;
  const text =
    request.agentSystem.length <= maxCharacters
      ? request.agentSystem
      : `${request.agentSystem.slice(0, maxCharacters)} […]`;
  return `O que o agente já recebe no seu prompt de sistema (o estado em vigor; não o repita no resumo):\n${text}\n\n`;
}

function transcriptLine(entry: ChatHistoryEntry, maxCharacters: number): string {
  const clip = (text: string) =>
    text.length <= maxCharacters ? text : `${text.slice(0, maxCharacters)} […]`;
  if (entry.role === 'user') return `[#${entry.seq}] pessoa: ${clip(entry.content)}`;
  if (entry.role === 'assistant') {
    const calls = (entry.tool_calls ?? [])
      .map((call) => ` → ${call.name}(${clip(JSON.stringify(call.arguments ?? {}))})`)
      .join('');
    return `[#${entry.seq}] ${entry.agent}: ${clip(entry.content)}${calls}`;
  }
  return `[#${entry.seq}] resultado de ${entry.tool}${entry.ok ? '' : ' (recusado)'}: ${clip(entry.content)}`;
}
