import { readFileSync } from 'node:fs';
import { ScriptInvalidError } from '../errors/script-invalid-error.ts';
import {
  createScriptedProvider,
  type ScriptedProvider,
  type ScriptPosition,
} from './create-scripted-provider.ts';
import { parseScriptText } from './parse-script.ts';

/**
 * Reads a script file and builds the scripted provider from it. Synchronous because it runs once at
 * start-up, while configuration is read. An unreadable or invalid file is a ScriptInvalidError.
 */
export function loadScriptedProvider(
  path: string,
  options: { startAt?: ScriptPosition } = {},
): ScriptedProvider {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScriptInvalidError(path, [{ path: '(file)', message: `cannot be read: ${reason}` }]);
  }
  return createScriptedProvider({ script: parseScriptText(text, path), source: path, ...options });
}
