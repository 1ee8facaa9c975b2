import { isPlainObject } from '../kernel/validation';
import type { Settings } from './settings.state';

/**
 * A value with every string possibly removed (null), as `publicSettings` returns it. A string
 * is kept whole or removed, never rewritten, so a literal type (an environment, a policy) stays.
 */
export type Redacted<T> = T extends string
  ? T | null
  : T extends readonly (infer U)[]
    ? Redacted<U>[]
    : T extends object
      ? { [K in keyof T]: Redacted<T[K]> }
      : T;

/** The settings as the UI and `settings_get` see them: no secret-shaped value left. */
export type PublicSettings = Redacted<Settings>;

/** A key that names a secret; every string below it is removed. */
const SECRET_KEY =
  /token|secret|passw(?:or)?d|passphrase|key|credential|private|cookie|auth(?!or)/i;
/** Every value of an MCP server's environment: API keys are what these usually hold. */
const ENV_KEY = /^env$/i;
/** A URL with a password in it: scheme://user:password@host. */
const URL_CREDENTIALS = /[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i;
const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const AUTH_HEADER = /\b(?:Bearer|Basic)\s+\S{8,}/i;
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./;
/** Prefixes of the tokens of GitHub, GitLab, OpenAI/Anthropic, Stripe, Slack, AWS, Google, npm, Hugging Face. */
const TOKEN_PREFIX =
  /^(?:gh[pousr]_|github_pat_|glpat-|sk-|sk_(?:live|test)_|rk_(?:live|test)_|xox[abposr]-|xapp-|AKIA|ASIA|AIza|ya29\.|npm_|hf_|pypi-)/;
const HEX = /^[0-9a-f]{32,}$/i;
const BASE64ISH = /^[A-Za-z0-9+/_-]{32,}={0,2}$/;
const WORD_SEPARATORS = /[\s"'`,;:=@()<>[\]{}|]+/;

function randomLooking(word: string): boolean {
  if (HEX.test(word)) return true;
  // Mixed case and digits in one long run: a key, not a path (those start with /) or a name.
  return (
    BASE64ISH.test(word) &&
    !word.startsWith('/') &&
    /\d/.test(word) &&
    /[a-z]/.test(word) &&
    /[A-Z]/.test(word)
  );
}

/**
 * Whether a string holds something that looks like a credential anywhere in it: a known token
 * prefix, a JWT, a private key, a URL with a password, an Authorization header's credentials,
 * or a long random-looking word (hex, or
 * base64 with mixed case and digits, 32 characters or more). It errs towards removing: a long
 * mixed-case name with digits is removed too, which costs a display, not a leak.
 */
export function looksLikeSecret(value: string): boolean {
  if ([URL_CREDENTIALS, PEM, JWT, AUTH_HEADER].some((pattern) => pattern.test(value))) return true;
  return value
    .split(WORD_SEPARATORS)
    .some((word) => (TOKEN_PREFIX.test(word) && word.length >= 20) || randomLooking(word));
}

function redact(value: unknown, secretContext: boolean): unknown {
  if (typeof value === 'string') return secretContext || looksLikeSecret(value) ? null : value;
  if (Array.isArray(value)) return value.map((item) => redact(item, secretContext));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        redact(v, secretContext || SECRET_KEY.test(key) || ENV_KEY.test(key)),
      ]),
    );
  }
  return value;
}

/** The rules of `publicSettings` for any JSON value: a new value, secrets removed. */
export function withoutSecrets<T>(value: T): Redacted<T> {
  return redact(value, false) as Redacted<T>;
}

/**
 * The settings without their secrets, for anything that leaves the control plane (the UI, the
 * agent's `settings_get`). A secret is REMOVED, not masked: its key stays with the value null,
 * so the shape is unchanged and no "[redacted]" string can be mistaken for (or saved back as) a
 * value. Removed: `github.token` and `github.webhookSecret`, every value of an MCP server's
 * `env`, every string under a key like token/secret/password/key/credential/auth, and any
 * string that `looksLikeSecret` (inside a command line too). Numbers and booleans stay.
 * Pure: returns a new object, `settings` is left as it is.
 */
export function publicSettings(settings: Settings): PublicSettings {
  return withoutSecrets(settings);
}
