import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { newSession } from './support/scenario.ts';
import { CHAT_PAGE } from '../../web/src/session/chat/use-chat-window.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** The sizes measured: the 100-message session and the 500 the page must stay usable with. */
const SIZES = [100, 500];

/** `count` messages: the person's and Criativo's in turn, the answers Markdown with a list and code. */
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

/** The built UI's files. */
const ASSETS = fileURLToPath(new URL('../../web/dist/assets', import.meta.url));

const MESSAGE = '[data-testid="message-user"], [data-testid="message-agent"]';

type Task = { start: number; duration: number };
const longest = (tasks: Task[]) => Math.round(Math.max(0, ...tasks.map((task) => task.duration)));
/** Total blocking time: what each long task took beyond 50 ms, summed. */
const blocking = (tasks: Task[]) =>
  Math.round(tasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0));

/**
 * ADR 0409 and 0424: a long session is usable at once, scrolls without freezing, keeps every message reachable,
 * and a new message costs what one message costs. Times are measured in the page (Performance API) and reported,
 * never asserted: the machine is shared.
 */
describe('long sessions in headless Chromium', { timeout: 300_000 }, () => {
  let served: ServedForja;
  // A new browser for each session, so each opens as a first visit does: nothing cached, nothing compiled.
  let chromium: HeadlessChromium | undefined;

  beforeAll(async () => {
    await ensureWebBuilt();
    served = await startServedForja(createScriptedProvider({ script: { turns: [] } }));
    // The server compresses each file on its first request and keeps it: every built file asked for once here,
    // so the first session measured does not wait for that.
    const accept = { 'accept-encoding': 'gzip, deflate, br' };
    for (const path of ['/', ...readdirSync(ASSETS).map((name) => `/assets/${name}`)])
      await (await fetch(`${served.url}${path}`, { headers: accept })).arrayBuffer();
  }, 180_000);

  afterEach(async () => {
    await chromium?.close();
    chromium = undefined;
  }, 60_000);

  afterAll(async () => {
    await served?.close();
  }, 60_000);

  for (const messages of SIZES) {
    it(`${messages} messages: the newest shows and the box takes input at once, every earlier one is reached by scrolling, one more re-renders none`, async () => {
      const sessionId = await newSession(served, `Long bakery ${messages}`);
      const appended = await served.forja.eventLog.append(sessionId, conversation(messages));
      expect(appended.success).toBe(true);
      chromium = await launchHeadlessChromium();
      const { page, errors } = await chromium.newPage();
      await page.addInitScript(COUNT_RENDERS);
      await page.goto(`${served.url}/sessions/${sessionId}`);
      const newest = `Answer ${messages / 2 - 1}:`;
      // Usable: the newest answer is on the page and the message box is enabled, checked on animation frames
      // (a frame runs only when the main thread is free), timed from navigation.
      const usableAt = (await (
        await page.waitForFunction(
          ({ selector, text }) => {
            const input = document.querySelector<HTMLTextAreaElement>(
              '[data-testid="message-input"]',
            );
            const shown = [...document.querySelectorAll(selector)].some((element) =>
              element.textContent?.includes(text),
            );
            return input !== null && !input.disabled && shown ? performance.now() : false;
          },
          { selector: MESSAGE, text: newest },
          { polling: 'raf' },
        )
      ).jsonValue()) as number;
      await page.waitForTimeout(500);
      const load = await page.evaluate(() => ({
        renders: (window as any).__renders as number,
        longTasks: (window as any).__longTasks as Task[],
        shown: document.querySelectorAll(
          '[data-testid="message-user"], [data-testid="message-agent"]',
        ).length,
        script: performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('.js'))
          .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).decodedBodySize, 0),
      }));
      await expect
        .poll(() => page.locator(MESSAGE).filter({ hasText: newest }).last().isVisible())
        .toBe(true);

      // The box takes input.
      await page.getByTestId('message-input').fill('typed while the session is long');
      expect(await page.getByTestId('message-input').inputValue()).toBe(
        'typed while the session is long',
      );
      await page.getByTestId('message-input').fill('');

      // One more message: the components that render for it, not for the messages already there.
      await page.evaluate(() => {
        (window as any).__renders = 0;
      });
      await served.forja.eventLog.append(sessionId, [
        { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'One more question.' } },
      ]);
      await page.getByTestId('message-user').filter({ hasText: 'One more question.' }).waitFor();
      await page.waitForTimeout(200);
      const perMessage = await page.evaluate(() => (window as any).__renders as number);

      // Scrolling the chat from the bottom to the very first message, by the wheel alone.
      await page.evaluate(() => {
        (window as any).__longTasks = [];
      });
      const list = page.getByTestId('chat-list');
      await list.hover();
      const first = page.locator(MESSAGE).filter({ hasText: 'Question 0:' });
      let wheels = 0;
      const scrollStarted = await page.evaluate(() => performance.now());
      for (; wheels < 400; wheels += 1) {
        await page.mouse.wheel(0, -1500);
        await page.waitForTimeout(16);
        if (
          (await first.count()) > 0 &&
          (await list.evaluate((element) => element.scrollTop)) === 0
        )
          break;
      }
      await page.waitForTimeout(300);
      const scrolling = await page.evaluate(
        (started) => ({
          tasks: (window as any).__longTasks as Task[],
          took: performance.now() - started,
        }),
        scrollStarted,
      );
      console.info(
        `${messages} messages: ${Math.round(load.script / 1024)} KB of script; message box usable ` +
          `${Math.round(usableAt)} ms after navigation with ${load.shown} messages on the page; loading: ` +
          `${load.renders} components rendered, ${load.longTasks.length} long tasks, longest ` +
          `${longest(load.longTasks)} ms, blocking ${blocking(load.longTasks)} ms; one new message rendered ` +
          `${perMessage} components; scrolling to the first message (${wheels + 1} wheel turns, ` +
          `${Math.round(scrolling.took)} ms): ${scrolling.tasks.length} long tasks, longest ` +
          `${longest(scrolling.tasks)} ms, blocking ${blocking(scrolling.tasks)} ms`,
      );
      // Every message is reachable: the first one is on screen at the top, and all are on the page.
      await expect.poll(() => first.isVisible()).toBe(true);
      expect(await page.locator(MESSAGE).count()).toBe(messages + 1);
      // Work, not time: a new message re-renders no earlier message (each one is at least one component).
      expect(perMessage).toBeLessThan(100);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('reaches earlier entries by the keyboard, in place, and goes to an early failed turn from Needs you', async () => {
    const sessionId = await newSession(served, 'Long bakery, early failure');
    const failed = [
      {
        type: 'turn.started',
        actor: 'dev:web',
        payload: { v: 1, agent: 'dev:web', turn_id: 't-web', kind: 'message' },
      },
      {
        type: 'turn.failed',
        actor: 'dev:web',
        payload: {
          v: 1,
          agent: 'dev:web',
          turn_id: 't-web',
          reason: 'provider_error',
          message: 'boom',
        },
      },
    ];
    const [activated, ...rest] = conversation(300);
    expect(
      (await served.forja.eventLog.append(sessionId, [activated!, ...failed, ...rest])).success,
    ).toBe(true);
    chromium = await launchHeadlessChromium();
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await page.locator(MESSAGE).filter({ hasText: 'Answer 149:' }).waitFor();
    // The newest entries only: the early failure is not rendered yet.
    expect(await page.locator(MESSAGE).count()).toBe(CHAT_PAGE);
    expect(await page.getByTestId('turn-failed').count()).toBe(0);

    // "Show earlier" by the keyboard: the entry on top stays where it was, the page before it is above.
    const top = page.locator(MESSAGE).first();
    const topText = await top.textContent();
    await page.getByTestId('show-earlier').focus();
    const before = (await top.boundingBox())!.y;
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator(MESSAGE).count()).toBe(2 * CHAT_PAGE);
    const kept = page.locator(MESSAGE).filter({ hasText: topText! });
    expect(Math.abs((await kept.boundingBox())!.y - before)).toBeLessThan(2);

    // Needs you's "go" to the failed turn renders the whole chat and brings the note into view.
    await page.getByTestId('needs-you-item').getByTestId('needs-you-go').click();
    await expect.poll(() => page.getByTestId('turn-failed').isVisible()).toBe(true);
    expect(await page.locator(MESSAGE).count()).toBe(300);
    expect(errors).toEqual([]);
    await page.close();
  });
});
