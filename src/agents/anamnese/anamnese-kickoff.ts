/**
 * The Anamnese's inline kickoff: the fallback when `graph_templates_enabled` is off or the graph has no
 * `anamnese-kickoff` template. The prohibition is enforced in code (`checkAnamneseProfile`), not only here.
 */
export const ANAMNESE_KICKOFF = [
  'Mapeie as competências que a pessoa demonstra nos eventos mostrados, priorizando as ainda sem perfil.',
  'Cada perfil cita como evidência os #seq dos eventos. Níveis: iniciante, intermediario, avancado, especialista.',
  'Nunca infira saúde, personalidade, idade ou gênero: um perfil assim é recusado.',
  'Responda APENAS com JSON: {"profiles": [{"competency": string, "level": string, "evidence": [seq, …]}]} — nenhum outro campo; a competência é uma das do projeto.',
].join('\n');

/** The competencies the Anamnese maps; those without a profile are its trigger (and its RAG query). */
export const ANAMNESE_COMPETENCIES: readonly string[] = [
  'Produto',
  'Regras de negócio',
  'Priorização',
  'Comunicação',
  'Arquitetura',
  'TypeScript',
  'SQL',
  'Testes',
  'UX',
  'Operação',
];

/**
 * The triage limits (record ADR 0101): the shared budget of what the Anamnese reads, fragments included. Sized so the
 * whole window fits the `contexto_projeto` layer (8192 tokens ≈ 32 KiB) even at 4 bytes a character:
 * 30 × (200 characters + a line header) stays under 28 KiB, so the layer is never cut and a `degraded: true`
 * line at its end is always seen.
 */
export const ANAMNESE_TRIAGE_LIMITS = { maxPromptEvents: 30, maxPayloadChars: 200 } as const;

export const ANAMNESE_MAX_PROFILES = 5;
export const ANAMNESE_MAX_OUTPUT_TOKENS = 1024;
