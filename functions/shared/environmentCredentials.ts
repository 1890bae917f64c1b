// Stands in for the AWS SDK's default credential chain in the function bundles (an esbuild alias of
// @aws-sdk/credential-provider-node, set in infra/notifierFunction.ts). Lambda hands each function its
// role's credentials in the environment, so the rest of the chain (profiles, SSO, web identity, container
// and instance metadata, with the SDK clients they bring) would be 140 KB parsed at every cold start and
// never run.
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
