import {
  AGE_PATTERNS,
  ALLOWED_TECHNICAL_PHRASES,
  FORBIDDEN_FIELD_TERMS,
  FORBIDDEN_TEXT_TERMS,
  PROHIBITED_CATEGORIES,
  type ProhibitedCategory,
} from './anamnese-forbidden-terms.ts';

/** One place a profile infers what it must not. */
export type AnamneseViolation = {
  /** Where: `traits.health` or `summary`. */
  readonly path: string;
  readonly category: ProhibitedCategory;
  /** The field name or text term that matched. */
  readonly term: string;
  readonly where: 'field' | 'text';
};

export type AnamneseProfileCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly violations: readonly AnamneseViolation[];
    };

/**
 * The Anamnese prohibition, enforced in code: refuses a profile that infers health, personality, age or
 * gender, by its field names and by the words of its text values (lists in `anamnese-forbidden-terms.ts`).
 * Walks the whole value, so nesting does not hide anything; the reason lists every violation.
 */
export function checkAnamneseProfile(profile: unknown): AnamneseProfileCheck {
  const violations: AnamneseViolation[] = [];
  walk(profile, '', violations);
  if (violations.length === 0) return { ok: true };
  const listed = violations.map(
    (violation) =>
      `${violation.path || '(profile)'}: ${violation.where} "${violation.term}" infers ${violation.category}`,
  );
  return {
    ok: false,
    reason: `the Anamnese never infers health, personality, age or gender; refused ${listed.join('; ')}`,
    violations,
  };
}

function walk(value: unknown, path: string, violations: AnamneseViolation[]): void {
  if (typeof value === 'string') {
    const words = textWords(value);
    const found = findTerm(words, FORBIDDEN_TEXT_TERMS);
    if (found !== null) violations.push({ path, ...found, where: 'text' });
    else {
      const age = AGE_PATTERNS.find((pattern) => pattern.test(words));
      if (age !== undefined)
        violations.push({
          path,
          category: 'age',
          term: words.match(age)![0].trim(),
          where: 'text',
        });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, `${path}[${index}]`, violations));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path === '' ? key : `${path}.${key}`;
    const found = findTerm(fieldWords(key), FORBIDDEN_FIELD_TERMS);
    if (found !== null)
      violations.push({ path: childPath, category: found.category, term: key, where: 'field' });
    walk(child, childPath, violations);
  }
}

/** ` word word … ` with spaces at both ends, so a phrase matches only whole words. */
type Words = string;

function findTerm(words: Words, terms: Readonly<Record<ProhibitedCategory, readonly string[]>>) {
  for (const category of PROHIBITED_CATEGORIES) {
    const term = terms[category].find((candidate) => words.includes(` ${candidate} `));
    if (term !== undefined) return { category, term };
  }
  return null;
}

function normalise(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function toWords(normalised: string): Words {
  const words = normalised.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  return ` ${words.join(' ')} `;
}

function textWords(text: string): Words {
  let words = toWords(normalise(text));
  for (const phrase of ALLOWED_TECHNICAL_PHRASES) {
    const allowed = toWords(phrase);
    // Repeated until stable: adjacent occurrences share a space, which one pass of replaceAll would miss.
    while (words.includes(allowed)) words = words.replaceAll(allowed, ' ');
  }
  return words;
}

/** `birthDate` → ` birth date `; `data_nascimento` → ` data nascimento `. */
function fieldWords(key: string): Words {
  return toWords(normalise(key.replace(/([a-z0-9])([A-Z])/g, '$1 $2')));
}
