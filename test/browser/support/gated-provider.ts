import type { ModelProvider, ModelStreamPart } from '../../../src/gateway/providers/index.ts';

export interface Gate {
  /** Lets the paused call stream the rest of its turn. */
  open(): void;
}

export interface GatedProvider {
  provider: ModelProvider;
  /** Pauses the agent's `call`-th model call (0-based) after `afterDeltas` text deltas, until the gate opens. */
  gate(agent: string, call: number, afterDeltas: number): Gate;
  /** Opens every gate (so nothing is left waiting when a test fails). */
  openAll(): void;
}

/**
 * Wraps a provider so a test can hold a turn in the middle of its stream: the browser then shows the text
 * streamed so far, and the test asserts it before letting the turn finish. No timing is assumed.
 */
export function gatedProvider(inner: ModelProvider): GatedProvider {
  const gates = new Map<string, { afterDeltas: number; opened: Promise<void>; open: () => void }>();
  const calls = new Map<string, number>();

  async function* held(
    parts: AsyncIterable<ModelStreamPart>,
    key: string,
    signal: AbortSignal,
  ): AsyncGenerator<ModelStreamPart> {
    let deltas = 0;
    // A held call still gives way to the caller's abort (the person's Stop), as a real stream would.
    const aborted = new Promise<void>((resolve) =>
      signal.aborted
        ? resolve()
        : signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    for await (const part of parts) {
      yield part;
      const gate = gates.get(key);
      if (gate && part.type === 'text-delta' && ++deltas === gate.afterDeltas)
        await Promise.race([gate.opened, aborted]);
    }
  }

  return {
    provider: {
      name: inner.name,
      model: inner.model,
      stream(request, options) {
        const call = calls.get(request.agent) ?? 0;
        calls.set(request.agent, call + 1);
        return held(inner.stream(request, options), `${request.agent}#${call}`, options.signal);
      },
    },
    gate(agent, call, afterDeltas) {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      gates.set(`${agent}#${call}`, { afterDeltas, opened, open });
      return { open };
    },
    openAll() {
      for (const gate of gates.values()) gate.open();
    },
  };
}
