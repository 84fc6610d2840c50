import { TEMPLATE_NAMES } from '../../domain/memory/template-names.ts';

/**
 * The bodies `forja seed` writes. Editing one here and seeding again makes a new version; the agents keep
 * their own inline text as the fallback for when the flag is off or the graph has no template.
 */
export const FIRST_BATCH_TEMPLATES: ReadonlyArray<{ name: string; body: string }> = [
  {
    name: TEMPLATE_NAMES.psicologoKickoff,
    body: [
      'Analise a sessão que terminou, a partir do motivo classificado (o gatilho) e dos eventos mostrados.',
      'Proponha no máximo 3 hipóteses sobre como a pessoa trabalha — ritmo, forma de decidir, onde trava —,',
      'cada uma com evidências: os números (#seq) dos eventos da sessão que a sustentam.',
      'Nunca infira saúde, personalidade, idade ou gênero. Hipóteses são propostas: a pessoa aceita ou descarta.',
      'Responda APENAS com JSON: {"hypotheses": [{"aspect": "ritmo" | "decisoes" | "bloqueios", "statement": string, "evidence": [seq, …]}]}.',
    ].join('\n'),
  },
  {
    name: TEMPLATE_NAMES.anamneseKickoff,
    body: [
      'Mapeie competências técnicas e de produto que a pessoa demonstra nos eventos mostrados.',
      'Priorize as competências ainda sem perfil. Cite como evidência os números (#seq) dos eventos.',
      'Nunca infira saúde, personalidade, idade ou gênero — um perfil assim é recusado pelo sistema.',
      'Níveis: iniciante, intermediario, avancado, especialista.',
      'Responda APENAS com JSON: {"profiles": [{"competency": string, "level": string, "evidence": [seq, …]}]} — nenhum outro campo; a competência é uma das do projeto.',
    ].join('\n'),
  },
  {
    name: TEMPLATE_NAMES.contextManagerSummarize,
    body: [
      'Resuma a conversa acima para que ela continue sem perder o fio:',
      'decisões tomadas, regras de negócio confirmadas, perguntas em aberto e o próximo passo.',
      'Cite os #seq das mensagens de onde cada ponto veio. Não invente nada que não esteja na conversa.',
    ].join('\n'),
  },
];
