/**
 * New capabilities are born switched off (docs/records.md, the principles). Each flag is read from the environment variable of
 * its own name in capitals (`GRAPH_TEMPLATES_ENABLED=true`); the names are the records' own.
 */
export const FEATURE_FLAG_NAMES = [
  'graph_templates_enabled',
  'graph_instruction_templates_enabled',
  'psychologist_enabled',
  'anamnese_enabled',
] as const;

export type FeatureFlagName = (typeof FEATURE_FLAG_NAMES)[number];
export type FeatureFlags = Readonly<Record<FeatureFlagName, boolean>>;

export const DEFAULT_FEATURE_FLAGS: FeatureFlags = Object.fromEntries(
  FEATURE_FLAG_NAMES.map((name) => [name, false]),
) as Record<FeatureFlagName, boolean>;

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', '']);

/** An on/off word (`true`, `on`, `1`, `yes` / `false`, `off`, `0`, `no`, empty), in any case; null for any other. */
export function readOnOffWord(value: string | undefined): boolean | null {
  const word = (value ?? '').trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/** Reads the flags; a value that is neither true nor false is an error naming the variable. */
export function readFeatureFlags(
  env: NodeJS.ProcessEnv,
): { ok: true; flags: FeatureFlags } | { ok: false; variable: string; message: string } {
  const flags: Record<string, boolean> = {};
  for (const name of FEATURE_FLAG_NAMES) {
    const variable = name.toUpperCase();
    const value = readOnOffWord(env[variable]);
    if (value !== null) flags[name] = value;
    else
      return {
        ok: false,
        variable,
        message: `${variable} must be true or false, not "${env[variable]}".`,
      };
  }
  return { ok: true, flags: flags as FeatureFlags };
}
