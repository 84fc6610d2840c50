/** Dispatched on `window` to point the message box at an agent and focus it (`detail.to`: the agent slug). */
export const COMPOSE_EVENT = 'forja:compose';

export type ComposeDetail = { to: string };

/**
 * Dispatched on `window` to make the chat render every entry now, the earlier ones it leaves out of a long
 * session included (ADR 0424); the chat renders them before the dispatch returns.
 */
export const SHOW_WHOLE_CHAT_EVENT = 'forja:show-whole-chat';

/**
 * Brings `selector`'s element into view and focuses its control `focusTestId` (else the element itself); an
 * element of the chat's earlier entries is rendered first.
 */
export function goTo(selector: string, focusTestId?: string): boolean {
  let target = document.querySelector<HTMLElement>(selector);
  if (target === null) {
    window.dispatchEvent(new Event(SHOW_WHOLE_CHAT_EVENT));
    target = document.querySelector<HTMLElement>(selector);
  }
  if (target === null) return false;
  target.scrollIntoView({ block: 'center', behavior: 'smooth' });
  const control =
    focusTestId === undefined
      ? null
      : target.querySelector<HTMLElement>(`[data-testid="${focusTestId}"]`);
  (control ?? target).focus({ preventScroll: true });
  return true;
}

/** Asks the message box to write to `to`. */
export function composeTo(to: string): void {
  window.dispatchEvent(new CustomEvent<ComposeDetail>(COMPOSE_EVENT, { detail: { to } }));
}

/**
 * After the person answered something (accepted, approved, denied, rejected, merged): focus the next thing that
 * waits for them — the first Needs-you item's control, which never approves anything itself — else the message
 * box. Never a risky approval.
 */
export function focusNextAction(): void {
  const next =
    document.querySelector<HTMLElement>(
      '[data-testid="needs-you-item"] button:not([disabled]), [data-testid="needs-you-item"] input',
    ) ?? document.querySelector<HTMLElement>('[data-testid="message-input"]');
  next?.focus();
}
