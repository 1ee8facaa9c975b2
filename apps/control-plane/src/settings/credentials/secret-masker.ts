/** What a masked secret reads as. */
export const MASK = '••••••••';

/** Shorter values are not masked: they would mangle ordinary words and numbers. */
const MIN_LENGTH = 8;

/**
 * Replaces every occurrence of any of `secrets` in every string of a JSON value (keys too),
 * so a harness that prints its environment, or an agent that passes a key to a tool, leaves
 * no credential in an event. Longest first, so one secret inside another is masked whole.
 */
export function maskSecrets<T>(value: T, secrets: readonly string[]): T {
  const list = [...new Set(secrets.filter((s) => s.length >= MIN_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  if (list.length === 0) return value;
  const maskText = (text: string): string =>
    list.reduce((t, secret) => (t.includes(secret) ? t.split(secret).join(MASK) : t), text);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return maskText(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [maskText(k), walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
