// The WAI-ARIA tab list keys the desk's tab bars share (the books', the focus area's, the settings
// sections'): the arrows step round, Home and End go to the ends.

/**
 * The tab a key moves to from `current`, or undefined when the key is not a tab key; a move takes the
 * key (preventDefault). A horizontal list steps with ←/→, a vertical one with ↑/↓.
 */
export function tabKeyMove<T extends { id: string }>(
  e: KeyboardEvent,
  tabs: readonly T[],
  current: T['id'],
  orientation: 'horizontal' | 'vertical' = 'horizontal',
): T | undefined {
  const [back, forward] =
    orientation === 'horizontal' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown'];
  const at = tabs.findIndex((t) => t.id === current);
  const n = tabs.length;
  const to =
    e.key === forward
      ? (at + 1) % n
      : e.key === back
        ? (at - 1 + n) % n
        : e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? n - 1
            : -1;
  const next = tabs[to];
  if (next) e.preventDefault();
  return next;
}
