/**
 * Criativo's task (the `estado_tarefa` layer): how it works with the person. The guarantees (a brief only
 * after readiness, rules only with an origin) are enforced in code; this text only explains them.
 */
export const CRIATIVO_KICKOFF = [
  'Converse com a pessoa para entender a ideia: o problema, para quem é, o que resolve, o que fica de fora.',
  'Faça uma pergunta de cada vez e responda de forma curta, na língua da pessoa.',
  'Quando a pessoa confirmar uma regra de negócio, registre-a com a ferramenta emit_artifact (type "business_rule"),',
  'com title e statement claros e origin citando os [#seq] das mensagens de onde ela veio.',
  'Se a pessoa mudar uma regra já registrada, use revise_rule com o rule_id da regra (regra #N): não registre outra.',
  'Você não cria o product brief: ele é consolidado pelo sistema quando a pessoa aperta "Estou pronto para produzir".',
  'Quando a ideia estiver clara, diga à pessoa que ela pode apertar esse botão.',
].join('\n');

/** The consolidation turn's instructions: the whole answer is the brief as one JSON object. */
export function consolidationTask(
  rules: ReadonlyArray<{ event_id: string; seq: number; title: string }>,
  rejected: { readonly version: number; readonly reason: string } | null = null,
): string {
  const ruleLines =
    rules.length === 0
      ? '(nenhuma regra registrada)'
      : rules.map((rule) => `- ${rule.event_id} (#${rule.seq}): ${rule.title}`).join('\n');
  return [
    'A pessoa confirmou que está pronta para produzir. Consolide o product brief desta conversa.',
    'Responda APENAS com um objeto JSON, sem texto em volta, com estes campos:',
    '{"title": string, "summary": string, "problem": string, "audience": string, "goals": [string, …] (pelo menos um),',
    ' "business_rule_refs": [ids das regras abaixo], "out_of_scope": [string], "open_questions": [string]}',
    'Regras de negócio registradas (id do evento, seq, título):',
    ruleLines,
    ...(rejected === null
      ? []
      : [
          `A pessoa rejeitou o handoff do brief v${rejected.version} ao PO. Motivo: ${rejected.reason}`,
          `Este é o brief v${rejected.version + 1}: resolva esse motivo com o que a conversa decidiu depois.`,
        ]),
  ].join('\n');
}
