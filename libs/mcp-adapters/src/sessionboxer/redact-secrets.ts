/**
 * Removes secret-shaped values from settings before they reach an agent: a key that names a
 * secret (token, password, apiKey, privateKey, clientSecret, cookie, authorization…) or a value
 * that looks like one (a GitHub or OpenAI-style token, a PEM block, a Bearer header, a URL
 * with a password) is dropped, at any depth. Dropped rather than masked: a masked value still
 * tells how long it is. Flags and counts under such a key (`hasToken: true`) are kept, and an
 * `env` map keeps its variable names with null values.
 */

const SECRET_KEY =
  /(secret|token|passw(or)?d|passphrase|api[-_]?key|private[-_]?key|access[-_]?key|credential|authorization|cookie|session[-_]?key|signing[-_]?key|^auth$|^pat$)/i;

const SECRET_VALUE = [
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/, // GitHub tokens
  /\bsk-[A-Za-z0-9_-]{16,}/, // OpenAI / Anthropic style keys
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack tokens
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key ids
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /^\s*(Bearer|Basic)\s+\S{8,}/i,
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i, // a URL carrying user:password@
];

/** A flag or a count under a secret's name (`hasToken`, `maxTokens`) tells nothing secret. */
function secretEntry(key: string, value: unknown): boolean {
  const harmless = value === null || typeof value === 'boolean' || typeof value === 'number';
  return SECRET_KEY.test(key) && !harmless;
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function secretValue(value: unknown): boolean {
  return typeof value === 'string' && SECRET_VALUE.some((pattern) => pattern.test(value));
}

/** Environment maps (an MCP server's `env`) hold API keys under any name: keep only the names. */
function namesOnly(env: object): Record<string, null> {
  return Object.fromEntries(Object.keys(env).map((name) => [name, null]));
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !secretValue(v)).map(redact);
  if (!isObject(value)) return value;
  const kept = Object.entries(value).filter(([k, v]) => !secretEntry(k, v) && !secretValue(v));
  return Object.fromEntries(
    kept.map(([k, v]) => [k, /^env$/i.test(k) && isObject(v) ? namesOnly(v) : redact(v)]),
  );
}

export function redactSecrets(settings: Record<string, unknown>): Record<string, unknown> {
  return redact(settings) as Record<string, unknown>;
}
