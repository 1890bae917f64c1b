// The notifier config as the CDK stack compiles it into a function's bundle (a module esbuild injects,
// exporting BUNDLED_CONFIG_GLOBAL: a file, never the command line, which the OS caps at 128 KB an argument
// and a config of some 170 organizations outgrew), because Lambda's environment holds 4 KB in all and a config with many
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

/**
 * What the stack compiles: the config's JSON as the parser returned it, and that JSON's SHA-256; for the
 * poller, the ids of the organizations whose `pollIntervalSeconds` the stack filled with the AWS default
 * (awsPollSettings.ts), since a filled-in 60 and a written 60 look alike once parsed.
 */
interface CheckedConfig {
  config: string;
  sha256: string;
  awsDefaultIntervals?: string[];
}

/** What the stack knows of the config beside its parsed form. */
export interface ConfigFacts {
  /** The organizations that set no `pollIntervalSeconds` and were given the AWS default. */
  awsDefaultIntervals?: readonly string[];
}

/** The text the stack compiles into a bundle for `config`, which the config parser returned. */
export function checkedConfigText(config: Config, facts: ConfigFacts = {}): string {
  const json = JSON.stringify(config);
  return JSON.stringify({
    config: json,
    sha256: sha256(json),
    ...(facts.awsDefaultIntervals === undefined
      ? {}
      : { awsDefaultIntervals: [...facts.awsDefaultIntervals] }),
  } satisfies CheckedConfig);
}

/**
 * The module the stack has esbuild inject into a bundle for `config`, which the config parser returned:
 * esbuild replaces every free BUNDLED_CONFIG_GLOBAL in the bundle with its export.
 */
export function bundledConfigModule(config: Config, facts: ConfigFacts = {}): string {
  return `export const ${BUNDLED_CONFIG_GLOBAL} = ${JSON.stringify(checkedConfigText(config, facts))};\n`;
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

/**
 * The organizations the stack gave the AWS default interval, as compiled into this bundle; none without a
 * compiled config, or with NOTIFIER_CONFIG set (its intervals are all taken as written).
 */
export function awsDefaultIntervals(env: NodeJS.ProcessEnv): ReadonlySet<string> {
  if (env.NOTIFIER_CONFIG !== undefined) return new Set();
  const checked = checkedConfig(bundledConfig() ?? '');
  return new Set(checked?.awsDefaultIntervals ?? []);
}

/** `text` as the stack compiles a checked config, or undefined when it is some other text. */
function checkedConfig(text: string): CheckedConfig | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { config, sha256, awsDefaultIntervals } = (value ?? {}) as Partial<
    Record<keyof CheckedConfig, unknown>
  >;
  if (typeof config !== 'string' || typeof sha256 !== 'string') return undefined;
  const ids =
    Array.isArray(awsDefaultIntervals) && awsDefaultIntervals.every((id) => typeof id === 'string')
      ? { awsDefaultIntervals: awsDefaultIntervals as string[] }
      : {};
  return { config, sha256, ...ids };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
