import type { ReactNode } from 'react';

type SystemNoteProps = {
  children: ReactNode;
  testId: string;
  tone?: 'info' | 'warning' | 'error';
  data?: Record<string, string | number>;
};

/** A line in the chat that is not a message: someone joined, a tool ran, something failed. */
export function SystemNote({ children, testId, tone = 'info', data = {} }: SystemNoteProps) {
  const dataAttributes = Object.fromEntries(
    Object.entries(data).map(([name, value]) => [`data-${name}`, String(value)]),
  );
  return (
    <li className={`system-note ${tone}`} data-testid={testId} {...dataAttributes}>
      {/* The alert inside the item: a list item with another role breaks the chat's list for screen readers. */}
      {tone === 'error' ? <span role="alert">{children}</span> : children}
    </li>
  );
}
