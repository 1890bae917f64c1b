// Reads and validates the config file, failing with one ConfigError that lists every problem by JSON path:
// for a command that reads secrets, the unset ones among them too, so one run names them all.
import { readFile } from 'node:fs/promises';
import { configErrorMap, inDocumentOrder, problemsFromZodError } from './configProblems.js';
import { type Config, ConfigSchema } from './configSchema.js';
import { ConfigError, type ConfigProblem } from './errors.js';
import { findUnsetSecretsInDraft, type SecretsNeeded } from './findUnsetSecretsInDraft.js';
import { findJsonSyntaxError } from './jsonSyntax.js';

export interface ConfigSecretsCheck {
  /** Where the command reads the secrets from. */
  env: NodeJS.ProcessEnv;
  /** Which of them it reads; all by default. */
  needed?: SecretsNeeded;
}

/**
 * Validates an already-parsed JSON value; `file` only names the source in the error. Given `secrets`, a
 * config the schema refuses also lists the unset secrets the command needs (a valid config's are the
 * command's to check, as it resolves them). Every command lists the problems in the file's order.
 */
export function parseConfig(json: unknown, file?: string, secrets?: ConfigSecretsCheck): Config {
  const result = ConfigSchema.safeParse(json, { error: configErrorMap });
  if (!result.success) {
    const problems = problemsFromZodError(result.error);
    const unset = secrets ? findUnsetSecretsInDraft(json, secrets.env, secrets.needed) : [];
    throw new ConfigError(file, inDocumentOrder([...problems, ...unset], json));
  }
  const { $schema: _editorsOnly, ...config } = result.data;
  return config;
}

/** Parses JSON text, then validates it. */
export function parseConfigText(text: string, file?: string): Config {
  return parseConfig(parseConfigJson(text, file), file);
}

export async function loadConfigFile(path: string, secrets?: ConfigSecretsCheck): Promise<Config> {
  return (await loadConfigDocument(path, secrets)).config;
}

/** A config and the JSON it was read from. */
export interface ConfigDocument {
  config: Config;
  /** As parsed, for problems found later to be listed in the file's order (configProblemsIn). */
  json: unknown;
}

/** The config and its JSON, for a command that finds more problems once the schema has passed. */
export async function loadConfigDocument(
  path: string,
  secrets?: ConfigSecretsCheck,
): Promise<ConfigDocument> {
  const json = await readConfigJson(path);
  return { config: parseConfig(json, path, secrets), json };
}

/**
 * The one way a command refuses a config for problems found past the schema (unset secrets, settings a
 * sender refuses): every problem, in the file's order, as check-config lists them.
 */
export function configProblemsIn(
  file: string,
  json: unknown,
  problems: readonly ConfigProblem[],
): ConfigError {
  return new ConfigError(file, inDocumentOrder(problems, json));
}

/**
 * The file's JSON, not yet validated: for check-config, which looks further into a config the schema
 * refused (its state path), so that one run lists every problem.
 * @throws ConfigError for a file that cannot be read or is not JSON
 */
export async function readConfigJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw readFailure(path, error);
  }
  return parseConfigJson(text, path);
}

function parseConfigJson(text: string, file: string | undefined): unknown {
  // Editors on Windows like to save a byte-order mark, which JSON.parse refuses.
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (json.trim() === '') throw wholeFileError(file, 'the file is empty');
  try {
    return JSON.parse(json);
  } catch {
    // The SyntaxError itself is dropped: its message may quote the text, which may hold a secret.
    const syntax = findJsonSyntaxError(json);
    throw wholeFileError(
      file,
      syntax
        ? `invalid JSON at line ${syntax.line}, column ${syntax.column}: ${syntax.message}`
        : 'invalid JSON',
    );
  }
}

function wholeFileError(file: string | undefined, message: string, cause?: unknown): ConfigError {
  return new ConfigError(file, [{ path: '$', message }], {
    summary: `${file ?? 'config'}: ${message}`,
    cause,
  });
}

function readFailure(path: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const summary =
    code === 'ENOENT'
      ? `config file ${path} not found`
      : code === 'EISDIR'
        ? `config file ${path} is a directory, not a file`
        : code === 'EACCES' || code === 'EPERM'
          ? `config file ${path} cannot be read: permission denied`
          : `config file ${path} cannot be read (${code ?? (error as Error)?.message ?? String(error)})`;
  return new ConfigError(path, [{ path: '$', message: summary }], { summary, cause: error });
}
