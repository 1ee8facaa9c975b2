import { badArgument } from '../sandbox/sandbox.refusals';
import {
  TOKEN_ABILITIES,
  TOKEN_DEFAULT_ABILITIES,
  TOKEN_EXPIRES_DEFAULT_SECONDS,
  TOKEN_EXPIRES_MAX_SECONDS,
  TOKEN_EXPIRES_MIN_SECONDS,
  TOKEN_ORIGINS_MAX,
  type TokenAbility,
} from './sandbox-token.limits';

/** abilities: exactly ["view"] or ["control"]; default ["control"]. */
export function validAbilities(value: unknown): TokenAbility[] {
  if (value === undefined) return [...TOKEN_DEFAULT_ABILITIES];
  const one = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : null;
  const ability = TOKEN_ABILITIES.find((a) => a === one);
  if (ability === undefined) {
    throw badArgument(
      'abilities',
      `abilities must be ["view"] or ["control"] (got ${JSON.stringify(value)})`,
    );
  }
  return [ability];
}

/** expires_in_seconds: a whole number from 60 to 3600; default 900. */
export function validExpiresIn(value: unknown): number {
  if (value === undefined) return TOKEN_EXPIRES_DEFAULT_SECONDS;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < TOKEN_EXPIRES_MIN_SECONDS ||
    value > TOKEN_EXPIRES_MAX_SECONDS
  ) {
    throw badArgument(
      'expires_in_seconds',
      `expires_in_seconds must be a whole number from ${TOKEN_EXPIRES_MIN_SECONDS} to ${TOKEN_EXPIRES_MAX_SECONDS} (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

/**
 * origins: up to 10, each a scheme (http or https) and a host, with a port if any, and nothing
 * else: no path (not even /), query, fragment or user. Kept as browsers send Origin (lower case).
 */
export function validOrigins(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badArgument('origins', 'origins must be a list of origins');
  if (value.length > TOKEN_ORIGINS_MAX) {
    throw badArgument(
      'origins',
      `origins holds at most ${TOKEN_ORIGINS_MAX} origins (got ${value.length})`,
    );
  }
  const origins = value.map((o: unknown, i) => {
    const origin = originOf(o);
    if (origin === null) {
      throw badArgument(
        'origins',
        `origins[${i}] must be a scheme and host with no path, such as https://app.example.com (got ${JSON.stringify(o)})`,
      );
    }
    return origin;
  });
  return [...new Set(origins)];
}

function originOf(value: unknown): string | null {
  if (typeof value !== 'string' || !URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  // url.origin drops a path, query, fragment and user: equal to the text only without them.
  return url.origin === value.toLowerCase() ? url.origin : null;
}
