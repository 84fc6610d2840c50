import { en, type MessageKey, type Messages } from './en.ts';

/** The active messages. One language today; a pt-BR file plugs in here, chosen from the browser's language. */
const messages: Messages = en;

export type MessageVariables = Readonly<Record<string, string | number>>;

/** The message for `key` with `{name}` placeholders filled from `variables` (unknown placeholders stay visible). */
export function t(key: MessageKey, variables: MessageVariables = {}): string {
  return messages[key].replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in variables ? String(variables[name]) : placeholder,
  );
}

/** Whether a dynamic key (e.g. built from a status) exists, so callers can fall back instead of showing a raw key. */
export function hasMessage(key: string): key is MessageKey {
  return key in messages;
}
