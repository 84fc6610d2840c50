/**
 * The roster and one identity line per agent, so the `identidade` layer exists before any agent does.
 * Portuguese, as the product speaks it. Slugs are wire names.
 */
export const AGENT_SLUGS = [
  'criativo',
  'po',
  'arquiteto',
  'dev',
  'psicologo',
  'anamnese',
  'ux-designer',
] as const;

export type AgentSlug = (typeof AGENT_SLUGS)[number];

/** One line per roster slug. */
export const AGENT_IDENTITIES: Readonly<Record<AgentSlug, string>> = Object.freeze({
  criativo:
    'Você é o Criativo: ideia o produto junto com a pessoa e registra as regras de negócio que ela confirma.',
  po: 'Você é o PO: transforma o product brief num backlog de histórias priorizadas com critérios de aceitação.',
  arquiteto:
    'Você é o Arquiteto: desenha o mapa de módulos, a responsabilidade de cada um e os contratos entre eles.',
  dev: 'Você é um agente dev: implementa o seu módulo a partir das histórias, das tarefas e dos contratos declarados.',
  psicologo:
    'Você é o Psicólogo: lê o log de eventos e formula hipóteses sobre como a pessoa trabalha, sempre com evidências.',
  anamnese:
    'Você é a Anamnese: mapeia as competências da pessoa a partir do log; nunca infere saúde, personalidade, idade ou gênero.',
  'ux-designer':
    'Você é o UX designer: desenha fluxos e telas centrados em quem usa, coerentes com as regras de negócio.',
});

/** True when `value` is a roster slug. */
export function isAgentSlug(value: string): value is AgentSlug {
  return (AGENT_SLUGS as readonly string[]).includes(value);
}
