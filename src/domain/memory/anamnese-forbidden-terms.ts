/**
 * What the Anamnese must never infer about a person (ADR 0101): health, personality, age, gender.
 * Terms are written normalised — lowercase, no accents — in Portuguese and English, because the check
 * normalises what it reads the same way. Field terms are matched against the words of a field name
 * (`birthDate` → `birth`, `date`); text terms against the words of every text value, multi-word terms as
 * a phrase. Words, not substrings, so `page`, `usage` and `qualidade` never match `age` or `idade`.
 */
export const PROHIBITED_CATEGORIES = ['health', 'personality', 'age', 'gender'] as const;

export type ProhibitedCategory = (typeof PROHIBITED_CATEGORIES)[number];

/** Words that make a field name a prohibited inference on their own. */
export const FORBIDDEN_FIELD_TERMS: Readonly<Record<ProhibitedCategory, readonly string[]>> = {
  health: [
    'health', 'saude', 'medical', 'medico', 'medica', 'diagnosis', 'diagnostico', 'disease', 'doenca', 'illness',
    'disability', 'deficiencia',
  ],
  personality: [
    'personality', 'personalidade', 'temperament', 'temperamento', 'mbti', 'enneagram', 'eneagrama', 'psychological',
    'psicologico', 'psicologica', 'emotional', 'emocional',
  ],
  age: ['age', 'idade', 'birth', 'birthday', 'birthdate', 'dob', 'nascimento', 'aniversario', 'etaria'],
  gender: ['gender', 'genero', 'sex', 'sexo', 'pronoun', 'pronouns', 'pronome', 'pronomes'],
};

/** Words and phrases that, in a text value, state or hint such an inference. */
export const FORBIDDEN_TEXT_TERMS: Readonly<Record<ProhibitedCategory, readonly string[]>> = {
  health: [
    'saude', 'health', 'doenca', 'doente', 'disease', 'illness', 'sick', 'diagnosticado', 'diagnosticada', 'diagnosed',
    'depressao', 'depression', 'depressed', 'deprimido', 'deprimida', 'ansiedade', 'anxiety', 'ansioso', 'ansiosa', 'anxious',
    'tdah', 'adhd', 'autismo', 'autism', 'autista', 'autistic', 'burnout', 'transtorno', 'disorder', 'bipolar',
    'dislexia', 'dyslexia', 'deficiencia', 'disability', 'disabled', 'medicacao', 'medicamento', 'medication',
    'terapia', 'therapy', 'psiquiatra', 'psychiatrist', 'neurodivergente', 'neurodivergent', 'saude mental', 'mental health',
  ],
  personality: [
    'personalidade', 'personality', 'introvertido', 'introvertida', 'introvert', 'introverted', 'extrovertido',
    'extrovertida', 'extravertido', 'extrovert', 'extroverted', 'temperamento', 'temperament', 'mbti', 'eneagrama',
    'enneagram', 'big five', 'narcisista', 'narcissistic', 'neurotico', 'neurotica', 'neurotic', 'timido', 'timida', 'shy',
    'nervoso', 'nervosa', 'nervosos', 'nervous', 'estressado', 'estressada', 'stressed', 'emotivo', 'emotiva', 'irritado',
    'irritada', 'irritadico', 'irritadica', 'inseguro', 'insegura', 'insecure', 'reservado', 'reservada', 'reserved',
    'calado', 'calada', 'quieto', 'quieta', 'quiet', 'sociavel', 'sociable', 'antissocial', 'antisocial', 'arrogante',
    'arrogant', 'preguicoso', 'preguicosa', 'lazy', 'teimoso', 'teimosa', 'stubborn', 'carater', 'character trait',
  ],
  age: [
    'idade', 'anos de idade', 'years old', 'year old', 'idoso', 'idosa', 'elderly', 'jovem', 'adolescente', 'teenager',
    'millennial', 'boomer', 'geracao z', 'gen z', 'faixa etaria', 'age group', 'age range', 'nascido em', 'nascida em', 'born in',
    'aposentado', 'aposentada', 'aposentados', 'retired', 'retiree', 'aposentadoria', 'retirement', 'crianca', 'child',
  ],
  gender: [
    'genero', 'gender', 'sexo', 'masculino', 'feminino', 'male', 'female', 'homem', 'mulher', 'woman', 'women',
    'transgenero', 'transgender', 'nao binario', 'nao binaria', 'non binary', 'nonbinary',
    // Gendered pronouns and family roles say a gender (and a family status) as plainly as the words above.
    'ela', 'elas', 'ele', 'eles', 'dela', 'dele', 'she', 'he', 'her', 'hers', 'him', 'his', 'mae', 'pai', 'mother',
    'father', 'mom', 'dad', 'esposa', 'marido', 'wife', 'husband', 'gravida', 'pregnant', 'filhos', 'filho', 'filha',
    'filhas', 'children', 'kids', 'casado', 'casada', 'married', 'solteiro', 'solteira', 'divorciado', 'divorciada',
  ],
};

/**
 * Technical phrases removed from text before matching, so a competence in operations ("implemented health
 * checks", "Cache-Control max-age") is not mistaken for a health or age inference.
 */
export const ALLOWED_TECHNICAL_PHRASES: readonly string[] = [
  'health check', 'health checks', 'healthcheck', 'healthchecks', 'health endpoint', 'health probe', 'max age', 'cache age',
  'child process', 'child processes', 'child node', 'quiet mode', 'processo filho', 'processos filhos', 'no filho',
];

/**
 * Patterns of an age stated with a number ("Tem 45 anos", "34 years old", "nos seus 30"), matched on the
 * normalised words; a number next to a unit of time that is about work ("2 anos de experiência") still says
 * nothing about the person's age only when it says "de experiencia" — that one is allowed.
 */
export const AGE_PATTERNS: readonly RegExp[] = [
  / \d{1,3} (anos|ano|years|year|yo)(?! de (experiencia|empresa|projeto|casa|carreira))( |$)/,
  / (nos seus|nos|in (his|her|their)) \d0 /,
  / \d0 e poucos /,
];
