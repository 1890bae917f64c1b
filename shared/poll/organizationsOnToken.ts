// An organization's share of its token's budget (pure): how many of the deployment's organizations poll with
// the same token, itself included, counted by token identity (shared/api/tokenIdentity.ts), the key the
// budget itself is counted under. Both runtimes count with it, so two secret references holding one token
// are one token: each organization on it paces for its share, never for the whole budget.

/**
 * @param identities the token identity of every organization of the deployment, `own`'s included
 * @param own the identity of the token the organization polls with
 */
export function organizationsOnToken(identities: Iterable<string>, own: string): number {
  let sharing = 0;
  for (const identity of identities) if (identity === own) sharing += 1;
  // The organization itself, even when a caller left it out of the list.
  return Math.max(1, sharing);
}
