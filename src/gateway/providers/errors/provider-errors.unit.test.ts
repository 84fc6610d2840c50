import { describe, expect, it } from 'vitest';
import { isRetryableProviderError } from './is-retryable-provider-error.ts';
import { ModelNotConfiguredError } from './model-not-configured-error.ts';
import { ProviderCancelledError } from './provider-cancelled-error.ts';
import { ProviderConnectionError } from './provider-connection-error.ts';
import { ProviderError } from './provider-error.ts';
import { ProviderHttpError } from './provider-http-error.ts';
import { ProviderStreamError } from './provider-stream-error.ts';
import { ProviderTimeoutError } from './provider-timeout-error.ts';
import { ScriptExhaustedError } from './script-exhausted-error.ts';
import { ScriptExpectationError } from './script-expectation-error.ts';
import { ScriptInvalidError } from './script-invalid-error.ts';

const http = (status: number) => new ProviderHttpError({ provider: 'openai', status, body: '' });
const expectationError = new ScriptExpectationError({
  source: 'demo.json',
  agent: 'criativo',
  scriptIndex: 3,
  agentTurn: 1,
  check: 'tools',
  expected: 'the tool "emit_artifact" to be offered',
  received: 'no tools',
});

describe('provider errors', () => {
  it('carry a stable name and belong to the ProviderError hierarchy', () => {
    const errors: Array<[Error, string]> = [
      [http(429), 'ProviderHttpError'],
      [
        new ProviderStreamError({ provider: 'openai', message: 'x', retryable: false }),
        'ProviderStreamError',
      ],
      [
        new ProviderTimeoutError({ provider: 'openai', phase: 'idle', timeoutMs: 5 }),
        'ProviderTimeoutError',
      ],
      [new ProviderCancelledError('openai'), 'ProviderCancelledError'],
      [new ProviderConnectionError('openai', new Error('fetch failed')), 'ProviderConnectionError'],
      [new ScriptExhaustedError({ agent: 'po', turnCount: 2 }), 'ScriptExhaustedError'],
      [expectationError, 'ScriptExpectationError'],
    ];
    for (const [error, name] of errors) {
      expect(error.name).toBe(name);
      expect(error).toBeInstanceOf(ProviderError);
    }
  });

  it('keep configuration errors apart from call errors', () => {
    const notConfigured = new ModelNotConfiguredError({
      problem: 'model-unset',
      variables: ['FORJA_MODEL'],
      message: 'm',
    });
    const invalid = new ScriptInvalidError('demo.json', [{ path: 'turns', message: 'required' }]);
    expect([notConfigured.name, invalid.name]).toEqual([
      'ModelNotConfiguredError',
      'ScriptInvalidError',
    ]);
    expect(notConfigured).not.toBeInstanceOf(ProviderError);
    expect(invalid.message).toBe('invalid scripted model (demo.json): turns: required');
  });

  it('say in the message what went wrong', () => {
    expect(new ScriptExhaustedError({ agent: 'po', turnCount: 2 }).message).toBe(
      'scripted model has no turn left for agent "po": all 2 of its turns in the script were already used',
    );
    expect(expectationError.message).toBe(
      'scripted model: the call does not match turns[3] (criativo\'s turn 2) of demo.json: expected the tool "emit_artifact" to be offered; received no tools',
    );
    expect(
      new ProviderTimeoutError({ provider: 'anthropic', phase: 'first-byte', timeoutMs: 100 })
        .message,
    ).toBe('anthropic timed out waiting 100 ms for the first byte');
    const refused = new ProviderConnectionError(
      'openai',
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }),
    );
    expect(refused.message).toBe('could not reach openai: fetch failed (connect ECONNREFUSED)');
  });

  it('are retryable only when trying again may help', () => {
    expect(
      [408, 429, 500, 503, 529].map((status) => isRetryableProviderError(http(status))),
    ).toEqual([true, true, true, true, true]);
    expect(
      [400, 401, 403, 404, 422].map((status) => isRetryableProviderError(http(status))),
    ).toEqual([false, false, false, false, false]);
    expect(
      isRetryableProviderError(
        new ProviderStreamError({ provider: 'a', message: 'x', retryable: true }),
      ),
    ).toBe(true);
    expect(
      isRetryableProviderError(
        new ProviderStreamError({ provider: 'a', message: 'x', retryable: false }),
      ),
    ).toBe(false);
    expect(
      isRetryableProviderError(
        new ProviderTimeoutError({ provider: 'a', phase: 'first-byte', timeoutMs: 1 }),
      ),
    ).toBe(true);
    expect(isRetryableProviderError(new ProviderCancelledError('a'))).toBe(false);
    expect(isRetryableProviderError(new ScriptExhaustedError({ agent: 'po', turnCount: 0 }))).toBe(
      false,
    );
    expect(isRetryableProviderError(expectationError)).toBe(false);
    expect(isRetryableProviderError(new Error('anything else'))).toBe(false);
  });
});
