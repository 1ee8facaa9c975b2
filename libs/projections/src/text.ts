/**
 * At most `max` characters (code points, so an emoji counts once and is never split): a longer
 * text keeps its first `max - 1` and ends with `…`. The domain's own `cut` (kernel/validation)
 * is not part of its public API, and a read model must cut exactly as it does.
 */
export function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** One line: every run of whitespace, newlines included, becomes one space; ends trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
