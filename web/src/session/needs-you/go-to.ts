/** Dispatched on `window` to point the message box at an agent and focus it (`detail.to`: the agent slug). */
export const COMPOSE_EVENT = 'forja:compose';

export type ComposeDetail = { to: string };

/** Brings `selector`'s element into view and focuses its control `focusTestId` (else the element itself). */
export function goTo(selector: string, focusTestId?: string): boolean {
  const target = document.querySelector<HTMLElement>(selector);
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
