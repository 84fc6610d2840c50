/**
 * The Psicólogo's inline kickoff (`estado_tarefa`): the fallback when `graph_templates_enabled` is off or the
 * graph has no `psicologo-kickoff` template. The guarantees (evidence cited, answer once) are in code.
 */
export const PSICOLOGO_KICKOFF = [
  'Analise a sessão que terminou a partir do gatilho (o motivo classificado) e dos eventos mostrados.',
  'Proponha até 3 hipóteses sobre como a pessoa trabalha, cada uma com as evidências: os #seq dos eventos.',
  'Nunca infira saúde, personalidade, idade ou gênero. A pessoa aceita ou descarta cada hipótese.',
  'Responda APENAS com JSON: {"hypotheses": [{"aspect": "ritmo" | "decisoes" | "bloqueios", "statement": string, "evidence": [seq, …]}]}.',
].join('\n');

/**
 * The triage limits (record ADR 0101): the shared budget of what the Psicólogo reads, fragments included. Sized so the
 * whole window fits the `contexto_projeto` layer (8192 tokens ≈ 32 KiB) even at 4 bytes a character:
 * 30 × (200 characters + a line header) stays under 28 KiB, so the layer is never cut and a `degraded: true`
 * line at its end is always seen.
 */
export const PSICOLOGO_TRIAGE_LIMITS = { maxPromptEvents: 30, maxPayloadChars: 200 } as const;

export const PSICOLOGO_MAX_HYPOTHESES = 3;
export const PSICOLOGO_MAX_OUTPUT_TOKENS = 1024;
