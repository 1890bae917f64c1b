// The one Secrets Manager secret that holds every organization's API token on AWS (a JSON object, each
// token under its reference's `env` name): the stack creates it and grants it to the poller, which reads it
// through SecretsManagerJsonSecretResolver.

/**
 * The secret holding the organizations' tokens, after the deployment's secrets prefix. No reference's own
 * secret can take this name: a reference names an environment variable, which has no "-".
 */
export const ORGANIZATION_TOKENS_SECRET = 'organization-tokens';
