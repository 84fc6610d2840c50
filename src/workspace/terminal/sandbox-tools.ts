/** The tools a module's check and a dev's terminal commonly need, looked for inside the sandbox. */
export const SANDBOX_TOOLS = ['node', 'npm', 'python3'] as const;
export type SandboxTool = (typeof SANDBOX_TOOLS)[number];

/** What the sandbox offers a command: each tool's version as it answers, or null when it is not there. */
export interface SandboxTools {
  versions: Record<SandboxTool, string | null>;
  /** Why the tools could not be looked for (the sandbox cannot be made and nothing runs without it). */
  unknown: string | null;
}

/**
 * One shell command printing `tool=version` per tool (empty when the tool is missing or fails): run once in
 * the sandbox, so the versions are those a check meets, not those of Forja's own process.
 */
export const SANDBOX_TOOLS_COMMAND = SANDBOX_TOOLS.map(
  (tool) => `printf '${tool}=%s\\n' "$(${tool} --version 2>&1 | head -n 1)"`,
).join('; ');

// A version as tools print it: `v24.1.0`, `11.3.0`, `Python 3.11.2`. Anything else (an error) is not one.
const VERSION = /^(?:[A-Za-z]+ )?v?\d+(?:\.\d+){1,3}[\w.+-]*$/;

/** Reads the output of SANDBOX_TOOLS_COMMAND. Pure; a line that is not a version means the tool is absent. */
export function parseSandboxTools(output: string): SandboxTools {
  const versions = Object.fromEntries(SANDBOX_TOOLS.map((tool) => [tool, null])) as Record<
    SandboxTool,
    string | null
  >;
  for (const line of output.split('\n')) {
    const equals = line.indexOf('=');
    const tool = line.slice(0, equals) as SandboxTool;
    const value = line.slice(equals + 1).trim();
    if (equals > 0 && SANDBOX_TOOLS.includes(tool) && VERSION.test(value) && value.length <= 40)
      versions[tool] = value.replace(/^[A-Za-z]+ /, '');
  }
  return { versions, unknown: null };
}
