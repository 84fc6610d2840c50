/** The languages a greeting is recorded in (the web's languages). */
export const GREETING_LANGUAGES = ['en', 'pt'] as const;
export type GreetingLanguage = (typeof GREETING_LANGUAGES)[number];

/**
 * What Criativo says when the person starts it: fixed words from its identity, recorded in its
 * `agent.activated` so every client (web, API, MCP) shows the same greeting. Never sent to the model.
 */
export const CRIATIVO_GREETINGS: Readonly<Record<GreetingLanguage, string>> = {
  en: 'Hi, I\'m Criativo. I shape the product with you, one question at a time, and record the business rules you confirm. Tell me your idea; when it is clear, press "I\'m ready to produce".',
  pt: 'Oi, eu sou o Criativo. Dou forma ao produto com você, uma pergunta de cada vez, e anoto as regras de negócio que você confirmar. Conte a sua ideia; quando estiver clara, aperte "Estou pronto para produzir".',
};

/**
 * The greeting's language from an HTTP `Accept-Language` header: the supported language the person prefers
 * most (by `q`, then order), by its primary subtag (`pt-BR` is `pt`); English when none is supported, the
 * header is absent, or it cannot be read. Pure; never throws.
 */
export function greetingLanguage(acceptLanguage: string | undefined | null): GreetingLanguage {
  if (typeof acceptLanguage !== 'string') return 'en';
  const ranked = acceptLanguage
    .slice(0, 1_000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters
        .map((parameter) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter)?.[1])
        .find((value) => value !== undefined);
      return {
        primary: tag.trim().toLowerCase().split('-')[0] ?? '',
        q: q === undefined ? 1 : Number(q),
        index,
      };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) =>
    (GREETING_LANGUAGES as readonly string[]).includes(entry.primary),
  );
  return (found?.primary as GreetingLanguage | undefined) ?? 'en';
}
