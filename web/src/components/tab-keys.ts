/**
 * The WAI-ARIA tabs pattern's keys (automatic activation): Left and Right move to the previous and next tab,
 * wrapping round; Home and End to the first and last. Any other key is not the tab list's (`null`).
 */
export function tabAfterKey(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
      return (current + 1) % count;
    case 'ArrowLeft':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
