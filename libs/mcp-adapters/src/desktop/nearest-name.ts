/**
 * The nearest of a list of names to a mistyped one, for "did you mean …?" answers. Distance is
 * optimal string alignment (Levenshtein with a swap of two neighbours as one edit, the commonest
 * typo: "Retrun"), on names folded by the caller (case, underscores).
 */

export function editDistance(a: string, b: string): number {
  // d[i][j]: edits from a's first i characters to b's first j.
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** A name as it may be written (folded) and the name to suggest for it. */
export type Candidate = readonly [written: string, suggestion: string];

/**
 * The suggestion of the candidate nearest to `folded`, when it is close enough to be a typo
 * rather than another word: one edit for names of up to 4 characters, two beyond. Ties go to
 * the first candidate, so callers list the likelier names first.
 */
export function nearestName(folded: string, candidates: readonly Candidate[]): string | undefined {
  const max = folded.length <= 4 ? 1 : 2;
  let best: { distance: number; suggestion: string } | undefined;
  for (const [written, suggestion] of candidates) {
    if (Math.abs(written.length - folded.length) > max) continue;
    const distance = editDistance(folded, written);
    if (distance <= max && (best === undefined || distance < best.distance)) {
      best = { distance, suggestion };
    }
  }
  return best?.suggestion;
}
