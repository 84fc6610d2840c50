import type { MouseEvent, ReactNode } from 'react';
import { navigate } from '../routing/navigate.ts';

type LinkProps = {
  to: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  data?: Record<string, string>;
};

/** An ordinary link (open in a new tab works) that navigates inside the app on a plain click. */
export function Link({ to, children, className, testId, data = {} }: LinkProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  const dataAttributes = Object.fromEntries(
    Object.entries(data).map(([name, value]) => [`data-${name}`, value]),
  );
  return (
    <a href={to} onClick={onClick} className={className} data-testid={testId} {...dataAttributes}>
      {children}
    </a>
  );
}
