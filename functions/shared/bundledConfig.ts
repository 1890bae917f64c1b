// The notifier config as the CDK stack compiles it into a function's bundle (an esbuild `define` of
// BUNDLED_CONFIG_GLOBAL), because Lambda's environment holds 4 KB in all and a config with many
// organizations does not fit in it. NOTIFIER_CONFIG in the environment, when set, still takes precedence;
// an unbundled module (tests, tsx) has no compiled config.

/** The identifier esbuild replaces with the config's JSON text; import-safe for infra/. */
export const BUNDLED_CONFIG_GLOBAL = 'NOTIFIER_BUNDLED_CONFIG';

declare const NOTIFIER_BUNDLED_CONFIG: string | undefined;

/** The config compiled into this bundle, if any. */
export function bundledConfig(): string | undefined {
  // `typeof` keeps an unbundled module from a ReferenceError; bundled, esbuild turns this into a constant.
  return typeof NOTIFIER_BUNDLED_CONFIG === 'string' ? NOTIFIER_BUNDLED_CONFIG : undefined;
}

/** `env` with NOTIFIER_CONFIG filled from the bundle when the environment does not set it. */
export function withBundledConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NOTIFIER_CONFIG !== undefined) return env;
  const config = bundledConfig();
  return config === undefined ? env : { ...env, NOTIFIER_CONFIG: config };
}
