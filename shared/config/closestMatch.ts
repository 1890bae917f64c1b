// "Did you mean …?" for config typos: the known name nearest to what was written, if one is near enough.

/** The candidate closest to `written` by edit distance, ignoring case; undefined when none is plausible. */
export function closestMatch(written: string, candidates: Iterable<string>): string | undefined {
  const target = written.toLowerCase();
  // A third of the word may be wrong (at least one edit): beyond that a suggestion is more noise than help.
  const limit = Math.max(1, Math.floor(target.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(target, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === written ? undefined : best;
}

/** Levenshtein distance with one reused row; the words compared here are short. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      const substitution = diagonal + (a[i - 1] === b[j - 1] ? 0 : 1);
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, substitution);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}
