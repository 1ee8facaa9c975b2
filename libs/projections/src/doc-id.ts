/**
 * A document id made of several ids (a session's snapshot, a session's PR). In each part `%`
 * and `/` are escaped, so no part can contain the separator and two different lists never
 * give one id. (Not encodeURIComponent: it throws on a lone surrogate, which would stop the
 * projection on that event.)
 */
export function docId(...parts: readonly string[]): string {
  return parts.map((p) => p.replaceAll('%', '%25').replaceAll('/', '%2F')).join('/');
}
