// Which tokens exist and which organizations each may read. Changeable at runtime so tests can revoke
// a token (401 from then on) or withdraw one organization (403).

export interface TokenGrant {
  token: string;
  /** Organization ids the token may read. */
  organizations: string[];
}

export class AccessControl {
  private readonly grants = new Map<string, Set<string>>();

  constructor(grants: readonly TokenGrant[] = []) {
    for (const grant of grants) {
      for (const organization of grant.organizations) this.grant(grant.token, organization);
      if (grant.organizations.length === 0) this.grants.set(grant.token, new Set());
    }
  }

  isKnownToken(token: string): boolean {
    return this.grants.has(token);
  }

  mayRead(token: string, organizationId: string): boolean {
    return this.grants.get(token)?.has(organizationId) ?? false;
  }

  /** Lets `token` read `organizationId`, creating the token if it is new. */
  grant(token: string, organizationId: string): void {
    if (token.length === 0) throw new RangeError('a token cannot be empty');
    const organizations = this.grants.get(token) ?? new Set<string>();
    organizations.add(organizationId);
    this.grants.set(token, organizations);
  }

  /** Withdraws one organization from `token`, or, without one, invalidates the token altogether. */
  revoke(token: string, organizationId?: string): void {
    if (organizationId === undefined) this.grants.delete(token);
    else this.grants.get(token)?.delete(organizationId);
  }

  list(): TokenGrant[] {
    return [...this.grants].map(([token, organizations]) => ({ token, organizations: [...organizations] }));
  }
}
