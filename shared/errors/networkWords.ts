// A socket or TLS error code in plain words, the one wording for every place that explains a connection
// that failed: check-config --ping, the runner's failure lines, and the senders' (so send-test's) reasons.

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address and port',
  ENOTFOUND: 'no such host: the name does not resolve',
  EAI_AGAIN: 'the name could not be resolved right now (DNS)',
  ECONNRESET: 'the connection was cut',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another name",
};

/** A socket or TLS error code in words, e.g. ECONNREFUSED; the code itself when it has none. */
export function networkWords(code: string): string {
  return NETWORK_WORDS[code] ?? code;
}
