import { describe, expect, it } from 'vitest';
import { en } from '../../web/src/i18n/en.ts';
import { languageFromPreferences } from '../../web/src/i18n/language.ts';
import { pt } from '../../web/src/i18n/pt.ts';

const placeholders = (message: string) =>
  new Set([...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));

/** Names and words that read the same in both languages (agent names, the product, a table heading). */
const SAME_IN_BOTH = new Set([
  'app.name',
  'agent.criativo',
  'agent.po',
  'agent.arquiteto',
  'agent.psicologo',
  'agent.anamnese',
  'agent.system',
  'agent.dev',
  'agent.devs',
  'agent.context-manager',
  'stepper.backlog',
  'production.tab.backlog',
  'model.configured',
  'devs.finishedItem',
  'diff.title',
  // Only placeholders and an arrow: who uses whom, and how.
  'c4.relation',
  // Only placeholders: a version number, a module and its status.
  'brief.version',
  'map.statusLabel',
]);

/** Positions in the event log (`#12`): the English shows them, the Portuguese says what they point at instead. */
const LOG_POSITIONS = new Set(['seq', 'seqs']);

/** Words a person does not say: the log's vocabulary, sequence numbers, guesses called "estimates". */
const JARGON = [/\beventos?\b/i, /\bseqs?\b/i, /estimad/i, /\bevents?\b/i, /\bturnos?\b/i];

describe('the Brazilian Portuguese catalogue', () => {
  it('has exactly the English keys, each filled', () => {
    expect(Object.keys(pt).sort()).toEqual(Object.keys(en).sort());
    for (const [key, message] of Object.entries(pt)) expect(message.trim(), key).not.toBe('');
  });

  it('fills only placeholders the English one is given (an unknown one would show as {name})', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      const unknown = [...placeholders(pt[key])].filter((name) => !placeholders(en[key]).has(name));
      expect(unknown, key).toEqual([]);
    }
  });

  it('keeps every placeholder that carries what the person needs (all but log positions)', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      const dropped = [...placeholders(en[key])].filter(
        (name) => !placeholders(pt[key]).has(name) && !LOG_POSITIONS.has(name),
      );
      expect(dropped, key).toEqual([]);
    }
  });

  it('is translated: only names read the same as in English', () => {
    const untranslated = (Object.keys(en) as Array<keyof typeof en>).filter(
      (key) => pt[key] === en[key] && !SAME_IN_BOTH.has(key),
    );
    expect(untranslated).toEqual([]);
  });

  it('speaks plain words: no events, sequence numbers or estimates', () => {
    const shown = (message: string) => message.replace(/\{\w+\}/g, '…');
    const jargon = Object.entries(pt).filter(
      ([, message]) => /#\{/.test(message) || JARGON.some((word) => word.test(shown(message))),
    );
    expect(jargon).toEqual([]);
  });
});

describe('the language a browser gets', () => {
  it.each([
    [['pt-BR', 'en-US'], 'pt'],
    [['pt'], 'pt'],
    [['PT-pt'], 'pt'],
    [['en-US', 'pt-BR'], 'en'],
    [['fr-FR', 'pt-BR'], 'pt'],
    [['fr-FR', 'de'], 'en'],
    [['portuguese'], 'en'],
    [[], 'en'],
  ])('%j → %s', (preferences, language) => {
    expect(languageFromPreferences(preferences)).toBe(language);
  });
});
