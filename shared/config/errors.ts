// Typed config failures. Messages name JSON paths, keys and environment variable names, never a value
// that could be a secret.

export interface ConfigProblem {
  /** JSON path from the document root, e.g. `$.organizations[0].timeZone`. */
  path: string;
  message: string;
}

/** The config could not be read or does not satisfy the contract; nothing should run. */
export class ConfigError extends Error {
  /** The file as the user named it; undefined when the config did not come from a file. */
  readonly file: string | undefined;
  readonly problems: readonly ConfigProblem[];

  /** `summary` replaces the problem list as the message, for a failure of the file as a whole. */
  constructor(
    file: string | undefined,
    problems: readonly ConfigProblem[],
    options?: { summary?: string; cause?: unknown },
  ) {
    super(options?.summary ?? listProblems(file, problems), { cause: options?.cause });
    this.name = new.target.name;
    this.file = file;
    this.problems = problems;
  }
}

function listProblems(file: string | undefined, problems: readonly ConfigProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((problem) => `  ${problem.path}: ${problem.message}`);
  return [`${file ?? 'config'}: ${count}`, ...lines].join('\n');
}

/** A secret reference points at an environment variable that is unset or empty. */
export class MissingSecretError extends Error {
  readonly variable: string;
  /** Where the reference sits in the config, when the caller said. */
  readonly path: string | undefined;

  constructor(variable: string, path?: string) {
    const where = path === undefined ? '' : ` (needed by ${path})`;
    super(`environment variable ${variable} is not set or is empty${where}`);
    this.name = new.target.name;
    this.variable = variable;
    this.path = path;
  }
}

/** A Secrets Manager secret exists without a value, or not at all: the operator has not put it yet. */
export class SecretNotSetError extends Error {
  readonly secretName: string;

  constructor(secretName: string, path: string | undefined, cause?: unknown) {
    const where = path === undefined ? '' : ` (needed by ${path})`;
    super(
      `secret ${secretName} has no value in Secrets Manager${where}; set it with aws secretsmanager put-secret-value`,
      { cause },
    );
    this.name = new.target.name;
    this.secretName = secretName;
  }
}

/** Secrets Manager refused or failed the lookup (permissions, throttling, network). */
export class SecretLookupError extends Error {
  readonly secretName: string;

  constructor(secretName: string, reason: string, cause?: unknown) {
    super(`could not read secret ${secretName} from Secrets Manager: ${reason}`, { cause });
    this.name = new.target.name;
    this.secretName = secretName;
  }
}
