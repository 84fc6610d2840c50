import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

const MESSAGES = 500;

/** 500 messages: the person's and Criativo's in turn, the answers Markdown with a list and code. */
function conversation(count: number) {
  const events: Array<{ type: string; actor: string; payload: unknown }> = [
    {
      type: 'agent.activated',
      actor: 'system',
      payload: { v: 1, agent: 'criativo', handoff_id: null },
    },
  ];
  for (let at = 0; at < count / 2; at += 1) {
    events.push({
      type: 'chat.message',
      actor: 'user',
      payload: { v: 1, text: `Question ${at}: and what about the ${at}th loaf?` },
    });
    events.push({
      type: 'agent.response',
      actor: 'criativo',
      payload: {
        v: 1,
        agent: 'criativo',
        turn_id: `turn-${at}`,
        text: `Answer **${at}**:\n\n- dough at ${at % 24}h\n- oven at ${(at + 2) % 24}h\n\n\`\`\`ts\nexport const loaf${at} = { weight: ${at * 10}, baked: true };\n\`\`\``,
        tool_calls: [],
      },
    });
  }
  return events;
}

/**
 * Counts the React components that rendered in each commit, through the hook React DevTools use: a function
 * component that ran has the PerformedWork flag (1), and a fiber that ran is a new object in the committed tree
 * (React swaps a fiber with its alternate when it renders it; a subtree it skipped keeps the very objects of the
 * last commit, flags and all). The work a new event costs, whatever the machine's speed.
 */
const COUNT_RENDERS = `
  window.__renders = 0;
  let previous = new WeakSet();
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject() { return 1; },
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
    onCommitFiberRoot(_id, root) {
      const seen = new WeakSet();
      const stack = [root.current];
      while (stack.length > 0) {
        const fiber = stack.pop();
        seen.add(fiber);
        const component = fiber.tag === 0 || fiber.tag === 11 || fiber.tag === 15;
        if (component && (fiber.flags & 1) === 1 && !previous.has(fiber)) window.__renders += 1;
        if (fiber.child) stack.push(fiber.child);
        if (fiber.sibling) stack.push(fiber.sibling);
      }
      previous = seen;
    },
  };
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

/** ADR 0409: a long session is usable at once and a new message costs what one message costs. */
describe(`a ${MESSAGES}-message session in headless Chromium`, { timeout: 300_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;

  beforeAll(async () => {
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(createScriptedProvider({ script: { turns: [] } })),
      launchHeadlessChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it('renders every message, and one more message re-renders none of the others', async () => {
    const sessionId = await newSession(served, 'Long bakery');
    const appended = await served.forja.eventLog.append(sessionId, conversation(MESSAGES));
    expect(appended.success).toBe(true);
    const { page, errors } = await chromium.newPage();
    await page.addInitScript(COUNT_RENDERS);
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await page.waitForFunction(
      (count) =>
        document.querySelectorAll('[data-testid="message-user"], [data-testid="message-agent"]')
          .length >= count &&
        !(document.querySelector('[data-testid="message-input"]') as HTMLTextAreaElement | null)
          ?.disabled,
      MESSAGES,
    );
    const usableAt = await page.evaluate(() => performance.now());
    const load = await page.evaluate(() => ({
      renders: (window as any).__renders as number,
      longTasks: (window as any).__longTasks as Array<{ duration: number }>,
    }));

    // One more message: the components that render for it, not for the 500 already there.
    await page.evaluate(() => {
      (window as any).__renders = 0;
    });
    await served.forja.eventLog.append(sessionId, [
      { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'One more question.' } },
    ]);
    await page.getByTestId('message-user').filter({ hasText: 'One more question.' }).waitFor();
    await page.waitForTimeout(200);
    const perMessage = await page.evaluate(() => (window as any).__renders as number);

    // Scrolling the chat from the bottom to the top, by the wheel.
    await page.evaluate(() => {
      (window as any).__longTasks = [];
    });
    const list = page.getByTestId('chat-list');
    await list.hover();
    for (let step = 0; step < 40; step += 1) await page.mouse.wheel(0, -1500);
    await page.waitForTimeout(300);
    const scrollTasks = await page.evaluate(
      () => (window as any).__longTasks as Array<{ duration: number }>,
    );
    const longest = (tasks: Array<{ duration: number }>) =>
      Math.round(Math.max(0, ...tasks.map((task) => task.duration)));
    console.info(
      `${MESSAGES} messages: message box usable ${Math.round(usableAt)} ms after navigation; ` +
        `${load.renders} components rendered to load, longest task ${longest(load.longTasks)} ms; ` +
        `one new message rendered ${perMessage} components; ` +
        `scrolling: ${scrollTasks.length} tasks over 50 ms, longest ${longest(scrollTasks)} ms`,
    );
    expect(
      await page.locator('[data-testid="message-user"], [data-testid="message-agent"]').count(),
    ).toBe(MESSAGES + 1);
    // Work, not time: a new message re-renders no earlier message (each one is at least one component).
    expect(perMessage).toBeLessThan(MESSAGES / 5);
    expect(errors).toEqual([]);
  });
});
