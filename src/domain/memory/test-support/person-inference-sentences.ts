import fc from 'fast-check';

/** The paraphrases a word list once let through as "competence profiles" (ADR 0023, its addendum). */
export const KNOWN_PARAPHRASES = [
  'Tem 45 anos',
  'Ela é mãe de dois filhos',
  'Fica nervoso sob pressão',
  'É muito reservado e calado',
  'Aposentado',
] as const;

const subjects = ['', 'Ela ', 'Ele ', 'A pessoa ', 'O usuário ', 'She ', 'He ', 'The person '];
const inferences = [
  'tem {n} anos',
  'tem uns {n} anos',
  'é mãe de {n} filhos',
  'é pai de {n} filhos',
  'fica nervoso sob pressão',
  'fica nervosa quando o prazo aperta',
  'é muito reservado e calado',
  'é reservada e quieta',
  'é aposentado',
  'parece ansiosa com prazos',
  'is {n} years old',
  'seems anxious under pressure',
  'is a retired engineer',
  'is a mother of two',
  'é introvertido',
  'parece deprimida',
  'is very shy',
  'é casada',
];
const endings = [
  '',
  '.',
  ' e domina SQL.',
  ', mas escreve bons testes.',
  ' and writes clean TypeScript.',
];

/** Sentences that infer age, gender, family status, personality or health, in Portuguese and English. */
export const personInferenceSentence = fc
  .tuple(
    fc.constantFrom(...subjects),
    fc.constantFrom(...inferences),
    fc.integer({ min: 2, max: 89 }),
    fc.constantFrom(...endings),
  )
  .map(([subject, inference, number, ending]) => {
    const sentence = `${subject}${inference.replace('{n}', String(number))}${ending}`;
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  });
