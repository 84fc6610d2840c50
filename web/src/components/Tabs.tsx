import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { tabAfterKey } from './tab-keys.ts';

export interface TabEntry<T extends string> {
  id: T;
  label: string;
}

/**
 * A tab list operable as the WAI-ARIA tabs pattern: one tab in the Tab order (the selected one, roving
 * tabindex), arrow keys, Home and End move between tabs and select the tab they land on.
 */
export function Tabs<T extends string>({
  idPrefix,
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  idPrefix: string;
  label: string;
  tabs: Array<TabEntry<T>>;
  selected: T;
  onSelect: (id: T) => void;
  children: ReactNode;
}) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = tabs.findIndex((entry) => entry.id === selected);
    const next = tabAfterKey(event.key, current, tabs.length);
    const target = next === null ? undefined : tabs[next];
    if (target === undefined) return;
    event.preventDefault();
    onSelect(target.id);
    buttons.current.get(target.id)?.focus();
  };
  return (
    <>
      <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((entry) => (
          <button
            key={entry.id}
            ref={(element) => {
              if (element === null) buttons.current.delete(entry.id);
              else buttons.current.set(entry.id, element);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${entry.id}`}
            aria-selected={selected === entry.id}
            aria-controls={`${idPrefix}-tabpanel`}
            tabIndex={selected === entry.id ? 0 : -1}
            className={selected === entry.id ? 'tab selected' : 'tab'}
            data-testid={`tab-${entry.id}`}
            onClick={() => onSelect(entry.id)}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${idPrefix}-tabpanel`}
        aria-labelledby={`${idPrefix}-tab-${selected}`}
        className="tab-panel"
        data-testid={`${idPrefix}-tabpanel`}
      >
        {children}
      </div>
    </>
  );
}
