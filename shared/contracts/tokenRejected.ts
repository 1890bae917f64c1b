// What an organization whose token the Admin API rejects (401 or 403, a TokenRejectedError) is marked with,
// and how often it is tried again: one wording and one interval for the failure line of every command,
// `status`, `/healthz`, the metrics, the AWS alarm and the poll pace, locally and on AWS.

/** The mark, and the first words of the failure line of a rejected token. */
export const TOKEN_REJECTED = 'token rejected: put a new token';

/**
 * After a cycle whose token the API rejected, how soon the organization is tried again: five minutes. A
 * person fixes a token minutes after being told, not seconds, so polling faster would only repeat a refused
 * request (which an API's lockout or intrusion alarm counts); slower would leave a fixed token unused for
 * longer. On AWS it is also how long the poller keeps a secret's value (the Secrets Manager resolvers'
 * maxAge), so a token put into the secret is used by the second retry at the latest. Locally the token is
 * read at start: a retry recovers an organization whose token the API accepts again (its access given
 * back); a new token needs a restart. One request in five minutes costs the token's budget nothing.
 */
export const TOKEN_REJECTED_RETRY_MS = 5 * 60_000;
