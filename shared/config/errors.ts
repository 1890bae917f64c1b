// Typed config failures. Messages name JSON paths, keys and environment variable names, never a value
// that could be a secret.

import { FixByHandError } from '../errors/fixByHandError.js';
import { TransientError } from '../errors/transientError.js';
import { counted } from '../text/counted.js';

export interface ConfigProblem {
  /** JSON path from the document root, e.g. `$.organizations[0].timeZone`. */
  path: string;
  message: string;
  /** Where the problem is written when that is not `path`: an unknown key, reported on its object, sits at the key. */
  place?: string;
}

/** The config could not be read or does not satisfy the contract; nothing should run. */
export class ConfigError extends FixByHandError {
  /** The file as the user named it; undefined when the config did not come from a file. */
  readonly file: string | undefined;
  readonly problems: readonly ConfigProblem[];

  /** `summary` replaces the problem list as the message, for a failure of the file as a whole. */
  constructor(
    file: string | undefined,
    problems: readonly ConfigProblem[],
    options?: { summary?: string; cause?: unknown },
  ) {
    super(options?.summary ?? listProblems(file, problems), options);
    this.file = file;
    this.problems = problems;
  }
}

function listProblems(file: string | undefined, problems: readonly ConfigProblem[]): string {
  const lines = problems.map((problem) => `  ${problem.path}: ${problem.message}`);
  return [`${file ?? 'config'}: ${counted(problems.length, 'problem')}`, ...lines].join('\n');
}

/** A secret reference points at an environment variable that is unset or empty. */
export class MissingSecretError extends FixByHandError {
  readonly variable: string;
  /** Where the reference sits in the config, when the caller said. */
  readonly path: string | undefined;

  constructor(variable: string, path?: string) {
    const where = path === undefined ? '' : ` (needed by ${path})`;
    super(`environment variable ${variable} is not set or is empty${where}`);
    this.variable = variable;
    this.path = path;
  }
}

/**
 * A Secrets Manager secret exists without a value, or not at all: the operator has not put it yet. For a
 * secret holding several values as one JSON object, `key` names the one missing, or the value is not such
 * an object at all. Only the operator putting the value fixes it; restarting reads the same empty secret.
 * `fix` is the command that puts it, when not `aws secretsmanager put-secret-value` (the tokens' shards).
 */
export class SecretNotSetError extends FixByHandError {
  readonly secretName: string;
  readonly key: string | undefined;

  constructor(
    secretName: string,
    path: string | undefined,
    options: { key?: string; notAnObject?: boolean; fix?: string; cause?: unknown } = {},
  ) {
    const where = path === undefined ? '' : ` (needed by ${path})`;
    const jsonSecret = options.key !== undefined || options.notAnObject === true;
    const what = options.notAnObject
      ? 'holds no JSON object of values by name'
      : options.key === undefined
        ? 'has no value'
        : `has no value for ${options.key}`;
    // Never the value: only its shape, which is all the operator needs to write the file.
    const file = jsonSecret
      ? `<JSON file holding every value by name, {"${options.key ?? 'NAME'}": "...", ...}>`
      : '<file holding the value>';
    const fix =
      options.fix ??
      `aws secretsmanager put-secret-value --secret-id ${secretName} --secret-string file://${file}`;
    super(`secret ${secretName} ${what} in Secrets Manager${where}; set it with: ${fix}`, options);
    this.secretName = secretName;
    this.key = options.key;
  }
}

/** Secrets Manager refused or failed the lookup (permissions, throttling, network). */
export class SecretLookupError extends TransientError {
  readonly secretName: string;

  constructor(secretName: string, reason: string, cause?: unknown) {
    super(`could not read secret ${secretName} from Secrets Manager: ${reason}`, { cause });
    this.secretName = secretName;
  }
}
