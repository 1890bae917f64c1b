// The notifier config as the CDK stack compiles it into a function's bundle (an esbuild `define` of
// BUNDLED_CONFIG_GLOBAL), because Lambda's environment holds 4 KB in all and a config with many
// organizations does not fit in it. The stack compiles the config already checked: what the config parser
// returned at synth (defaults filled in), with the SHA-256 of that JSON. At import the function checks the
// digest and takes the config as it is, rather than building the config's zod schemas to parse it a second
// time (several milliseconds of every cold start). NOTIFIER_CONFIG in the environment, when set, still takes
// precedence and is parsed in full, as is a compiled config whose digest does not match; an unbundled
// module (tests, tsx) has no compiled config.
import { createHash } from 'node:crypto';
import type { Config } from '../config/configSchema.js';
import { parseConfigText } from '../config/loadConfig.js';

/** The identifier esbuild replaces with the compiled config's text; import-safe for infra/. */
export const BUNDLED_CONFIG_GLOBAL = 'NOTIFIER_BUNDLED_CONFIG';

declare const NOTIFIER_BUNDLED_CONFIG: string | undefined;

/** What the stack compiles: the config's JSON as the parser returned it, and that JSON's SHA-256. */
interface CheckedConfig {
  config: string;
  sha256: string;
}

/** The text the stack compiles into a bundle for `config`, which the config parser returned. */
export function checkedConfigText(config: Config): string {
  const json = JSON.stringify(config);
  return JSON.stringify({ config: json, sha256: sha256(json) } satisfies CheckedConfig);
}

/** The config compiled into this bundle, if any, as its text. */
export function bundledConfig(): string | undefined {
  // `typeof` keeps an unbundled module from a ReferenceError; bundled, esbuild turns this into a constant.
  return typeof NOTIFIER_BUNDLED_CONFIG === 'string' ? NOTIFIER_BUNDLED_CONFIG : undefined;
}

/**
 * `env` with NOTIFIER_CONFIG filled from the bundle when the environment does not set it: what the
 * environment check sees, so that a function with neither names NOTIFIER_CONFIG among the missing variables.
 */
export function withBundledConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NOTIFIER_CONFIG !== undefined) return env;
  const config = bundledConfig();
  return config === undefined ? env : { ...env, NOTIFIER_CONFIG: config };
}

/**
 * The function's config: NOTIFIER_CONFIG when the environment sets it, parsed in full; otherwise the
 * compiled one, taken as checked at synth when its digest matches, and parsed in full when it does not.
 * @throws ConfigError naming NOTIFIER_CONFIG, also when there is no config at all
 */
export function functionConfig(env: NodeJS.ProcessEnv): Config {
  const set = env.NOTIFIER_CONFIG;
  if (set !== undefined) return parseConfigText(set, 'NOTIFIER_CONFIG');
  const compiled = bundledConfig() ?? '';
  const checked = checkedConfig(compiled);
  if (checked === undefined) return parseConfigText(compiled, 'NOTIFIER_CONFIG');
  return sha256(checked.config) === checked.sha256
    ? (JSON.parse(checked.config) as Config)
    : parseConfigText(checked.config, 'NOTIFIER_CONFIG');
}

/** `text` as the stack compiles a checked config, or undefined when it is some other text. */
function checkedConfig(text: string): CheckedConfig | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { config, sha256 } = (value ?? {}) as Partial<Record<keyof CheckedConfig, unknown>>;
  return typeof config === 'string' && typeof sha256 === 'string' ? { config, sha256 } : undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
