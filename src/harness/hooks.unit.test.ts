import { describe, expect, it } from 'vitest';
import { DuplicateHookHandlerError } from './duplicate-hook-handler-error.ts';
import {
  createHooks,
  registerHook,
  runHooks,
  type HookHandler,
  type HookPhase,
  type PreToolUsePayload,
} from './hooks.ts';
import { UnknownHookPhaseError } from './unknown-hook-phase-error.ts';

const call = (names: string[] = []): PreToolUsePayload => ({
  agent: 'dev:pedidos',
  session_id: 's1',
  tool: 'terminal',
  tool_call_id: 'c1',
  arguments: names,
});

/** A pre_tool_use handler that appends its name to the arguments it passes on. */
const appendName = (name: string): HookHandler<'pre_tool_use'> => ({
  name,
  run: (payload) => ({
    payload: { ...payload, arguments: [...(payload.arguments as string[]), name] },
  }),
});

const session = { session_id: 's1', project_id: 'p1', title: null };

describe('hooks', () => {
  it('is a value: registering returns a new hooks value and leaves the old one as it was', () => {
    const empty = createHooks();
    const one = registerHook(empty, 'pre_tool_use', appendName('a'));
    expect(empty.handlers.pre_tool_use).toEqual([]);
    expect(one.handlers.pre_tool_use.map((handler) => handler.name)).toEqual(['a']);
    expect(one.handlers.session_end).toEqual([]);
  });

  it('folds the payload through the handlers in registration order', async () => {
    let hooks = createHooks();
    for (const name of ['first', 'second', 'third'])
      hooks = registerHook(hooks, 'pre_tool_use', appendName(name));
    const result = await runHooks(hooks, 'pre_tool_use', call());
    expect(result).toEqual({
      halted: false,
      payload: call(['first', 'second', 'third']),
      ran: ['first', 'second', 'third'],
    });
  });

  it('passes the payload on unchanged when a handler returns nothing, and awaits async handlers', async () => {
    const seen: unknown[] = [];
    let hooks = registerHook(createHooks(), 'post_tool_use', {
      name: 'observe',
      run: (payload) => void seen.push(payload.outcome.result),
    });
    hooks = registerHook(hooks, 'post_tool_use', {
      name: 'redact',
      run: async (payload) => ({
        payload: { ...payload, outcome: { ...payload.outcome, result: '[redacted]' } },
      }),
    });
    const result = await runHooks(hooks, 'post_tool_use', {
      ...call(),
      outcome: { ok: true, result: 'token=abc' },
    });
    expect(result).toMatchObject({ halted: false, payload: { outcome: { result: '[redacted]' } } });
    expect(seen).toEqual(['token=abc']);
  });

  it('stops at a halt and says which handler halted and why', async () => {
    let hooks = registerHook(createHooks(), 'pre_tool_use', appendName('redact'));
    hooks = registerHook(hooks, 'pre_tool_use', {
      name: 'guard',
      run: () => ({ halt: 'rm -rf is not allowed' }),
    });
    hooks = registerHook(hooks, 'pre_tool_use', appendName('never'));
    expect(await runHooks(hooks, 'pre_tool_use', call())).toEqual({
      halted: true,
      payload: call(['redact']),
      ran: ['redact', 'guard'],
      haltedBy: 'guard',
      reason: 'rm -rf is not allowed',
    });
  });

  it('runs nothing for a phase without handlers', async () => {
    expect(
      await runHooks(createHooks(), 'session_end', { ...session, reason: 'completed' }),
    ).toEqual({ halted: false, payload: { ...session, reason: 'completed' }, ran: [] });
  });

  it('lets session handlers observe, and refuses one that returns a replacement or a halt', async () => {
    const seen: string[] = [];
    const observing = registerHook(createHooks(), 'session_start', {
      name: 'audit',
      run: (payload) => void seen.push(payload.project_id),
    });
    expect(await runHooks(observing, 'session_start', session)).toMatchObject({ ran: ['audit'] });
    expect(seen).toEqual(['p1']);
    const replacing = registerHook(createHooks(), 'session_end', {
      name: 'rewrite',
      run: (payload) => ({ payload }) as never,
    });
    await expect(
      runHooks(replacing, 'session_end', { ...session, reason: 'completed' }),
    ).rejects.toThrow(/'rewrite' of session_end returned a value; session hooks only observe/);
  });

  it('rejects an unknown phase with a typed error, on register and on run', async () => {
    expect(() =>
      registerHook(createHooks(), 'pre_tool' as HookPhase, appendName('a') as never),
    ).toThrow(UnknownHookPhaseError);
    await expect(runHooks(createHooks(), 'post_tool' as HookPhase, call())).rejects.toMatchObject({
      name: 'UnknownHookPhaseError',
      phase: 'post_tool',
    });
  });

  it('rejects a second handler with the same name in a phase', () => {
    const audit = { name: 'audit', run: () => undefined };
    const hooks = registerHook(createHooks(), 'session_end', audit);
    expect(() => registerHook(hooks, 'session_end', audit)).toThrow(DuplicateHookHandlerError);
    expect(registerHook(hooks, 'session_start', audit).handlers.session_start).toHaveLength(1);
  });

  it('refuses a verdict that is neither nothing, a payload nor a halt', async () => {
    const hooks = registerHook(createHooks(), 'pre_tool_use', {
      name: 'typo',
      run: () => ({ hlat: 'x' }) as never,
    });
    await expect(runHooks(hooks, 'pre_tool_use', call())).rejects.toThrow(/typo/);
  });
});
