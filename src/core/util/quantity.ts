/** "1 token", "2,048 tokens": a count with its noun in the right number. */
export function quantity(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}
