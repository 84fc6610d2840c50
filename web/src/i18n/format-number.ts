/** Token counts and similar, grouped for reading (12,345). */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en').format(value);
}
