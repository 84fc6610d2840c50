import { loadConfig, type ConfigError, type ForjaConfig } from '../config/config.ts';
import { createEmbeddingProviderFromConfig } from '../gateway/embeddings/create-embedding-provider-from-config.ts';
import { readPrices } from '../gateway/metering/prices/read-prices-file.ts';
import { checkBaseUrls } from '../gateway/providers/config/read-credentials.ts';
import { createModelRouting } from '../gateway/providers/config/create-model-routing.ts';
import { ModelNotConfiguredError } from '../gateway/providers/errors/model-not-configured-error.ts';
import { isTokenizerName, readContextWindowSettings, TOKENIZER_NAMES } from '../harness/index.ts';
import { readStreamBufferSetting } from '../http/stream-buffer-setting.ts';
import { readTerminalSettings } from '../workspace/terminal/terminal-settings.ts';
import { readGitTimeout } from '../workspace/git/host-git.ts';
import { readLaneLeaseSettings } from '../store/index.ts';
import { readOutputLimits, readOutputTokenCaps } from '../agents/index.ts';

/**
 * Every setting checked at start-up, in one place: Forja's own (`loadConfig`) and those each part reads itself —
 * the model and its endpoint, embeddings, the terminal, the tokenizer, the context windows — so a wrong value
 * stops `forja` at once with exit code 2 naming the variable, instead of a warning and a start.
 */
export function loadSettings(
  env: NodeJS.ProcessEnv,
  workingDirectory = process.cwd(),
): { ok: true; config: ForjaConfig } | { ok: false; error: ConfigError } {
  const loaded = loadConfig(env, workingDirectory);
  if (!loaded.ok) return loaded;
  const problem = checkComponentSettings(env);
  return problem === null ? loaded : { ok: false, error: problem };
}

function checkComponentSettings(env: NodeJS.ProcessEnv): ConfigError | null {
  const tokenizer = env.FORJA_TOKENIZER?.trim();
  if (tokenizer && !isTokenizerName(tokenizer)) {
    return {
      variable: 'FORJA_TOKENIZER',
      message: `FORJA_TOKENIZER must be one of ${TOKENIZER_NAMES.join(', ')} (or unset for the model's default), not "${tokenizer}".`,
    };
  }
  const baseUrl = checkBaseUrls(env);
  if (baseUrl !== null)
    return { variable: baseUrl.variables[0] ?? 'OPENAI_BASE_URL', message: baseUrl.message };
  // Unset FORJA_MODEL is allowed: Forja starts, and each agent turn says what to set. A set one must work,
  // and so must every FORJA_MODEL_<AGENT> with its base URL and key.
  const [model] = createModelRouting(env, { retries: false }).problems;
  if (model !== undefined)
    return {
      variable: model.variable,
      message:
        model.error instanceof ModelNotConfiguredError
          ? model.error.message
          : `${model.variable} names a script that cannot be used: ${model.error.message}`,
    };
  const embeddings = createEmbeddingProviderFromConfig(env);
  if (!embeddings.ok) return { variable: embeddings.variable, message: embeddings.message };
  const terminal = readTerminalSettings(env);
  if (!terminal.ok) return { variable: terminal.variable, message: terminal.message };
  const gitTimeout = readGitTimeout(env);
  if (!gitTimeout.ok) return { variable: gitTimeout.variable, message: gitTimeout.message };
  const windows = readContextWindowSettings(env);
  if (!windows.ok) return { variable: windows.variable, message: windows.message };
  const lease = readLaneLeaseSettings(env);
  if (!lease.ok) return { variable: lease.variable, message: lease.message };
  const streamBuffer = readStreamBufferSetting(env);
  if (!streamBuffer.ok) return { variable: streamBuffer.variable, message: streamBuffer.message };
  const prices = readPrices(env);
  if (!prices.ok) return { variable: prices.variable, message: prices.message };
  const outputLimits = readOutputLimits(env);
  if (!outputLimits.ok) return { variable: outputLimits.variable, message: outputLimits.message };
  const outputTokens = readOutputTokenCaps(env);
  if (!outputTokens.ok) return { variable: outputTokens.variable, message: outputTokens.message };
  return null;
}
