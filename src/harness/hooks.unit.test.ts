import { describe, expect, it } from 'vitest';
import { DuplicateHookHandlerError } from './duplicate-hook-handler-error.ts';
import { createHooks, registerHook, runHooks, type HookHandler } from './hooks.ts';
import { UnknownHookPhaseError } from './unknown-hook-phase-error.ts';

const appendName = (name: string): HookHandler => ({
  name,
  run: (payload) => ({ payload: [...(payload as string[]), name] }),
});

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
      hooks = registerHook(hooks, 'post_tool_use', appendName(name));
    const result = await runHooks(hooks, 'post_tool_use', []);
    expect(result).toEqual({
      halted: false,
      payload: ['first', 'second', 'third'],
      ran: ['first', 'second', 'third'],
    });
  });

  it('passes the payload on unchanged when a handler returns nothing, and awaits async handlers', async () => {
    const seen: unknown[] = [];
    let hooks = registerHook(createHooks(), 'session_start', {
      name: 'observe',
      run: (payload) => void seen.push(payload),
    });
    hooks = registerHook(hooks, 'session_start', {
      name: 'later',
      run: async (payload) => ({ payload: `${payload}!` }),
    });
    expect(await runHooks(hooks, 'session_start', 'oi')).toMatchObject({
      halted: false,
      payload: 'oi!',
    });
    expect(seen).toEqual(['oi']);
  });

  it('stops at a halt and says which handler halted and why', async () => {
    let hooks = registerHook(createHooks(), 'pre_tool_use', appendName('redact'));
    hooks = registerHook(hooks, 'pre_tool_use', {
      name: 'guard',
      run: () => ({ halt: 'rm -rf is not allowed' }),
    });
    hooks = registerHook(hooks, 'pre_tool_use', appendName('never'));
    expect(await runHooks(hooks, 'pre_tool_use', [])).toEqual({
      halted: true,
      payload: ['redact'],
      ran: ['redact', 'guard'],
      haltedBy: 'guard',
      reason: 'rm -rf is not allowed',
    });
  });

  it('runs nothing for a phase without handlers', async () => {
    expect(await runHooks(createHooks(), 'session_end', 42)).toEqual({
      halted: false,
      payload: 42,
      ran: [],
    });
  });

  it('rejects an unknown phase with a typed error, on register and on run', async () => {
    expect(() => registerHook(createHooks(), 'pre_tool', appendName('a'))).toThrow(
      UnknownHookPhaseError,
    );
    await expect(runHooks(createHooks(), 'post_tool', {})).rejects.toMatchObject({
      name: 'UnknownHookPhaseError',
      phase: 'post_tool',
    });
  });

  it('rejects a second handler with the same name in a phase', () => {
    const hooks = registerHook(createHooks(), 'session_end', appendName('audit'));
    expect(() => registerHook(hooks, 'session_end', appendName('audit'))).toThrow(
      DuplicateHookHandlerError,
    );
    expect(
      registerHook(hooks, 'session_start', appendName('audit')).handlers.session_start,
    ).toHaveLength(1);
  });

  it('refuses a verdict that is neither nothing, a payload nor a halt', async () => {
    const hooks = registerHook(createHooks(), 'pre_tool_use', {
      name: 'typo',
      run: () => ({ hlat: 'x' }) as never,
    });
    await expect(runHooks(hooks, 'pre_tool_use', {})).rejects.toThrow(/typo/);
  });
});
