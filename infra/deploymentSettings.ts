// The deployment's settings, from the CDK context (`cdk deploy -c key=value`), checked before anything is
// built so a typo ends in one clear line:
//
// | context          | default                      | meaning                                              |
// |------------------|------------------------------|------------------------------------------------------|
// | `config`         | infra/example.config.json    | the notifier config file (the local runner's format) |
// | `stackName`      | MealOrderNotifier            | deploy twice with two names                           |
// | `secretsPrefix`  | `<stackName>/`               | Secrets Manager names are prefix + `env` name         |
// | `alarmEmail`     | none                         | an address subscribed to the alarm topic              |
// | `removalPolicy`  | retain                       | kept on destroy, not after a failed first create;     |
// |                  |                              | `destroy` also deletes table, secrets and logs        |
// | `polling`        | on                           | `off` deploys the schedules (digest too) disabled     |
// | `pollerMemory`   | 256                          | the poller's memory in MB, for large organizations    |
// | `snsFilterPolicies` | 200                       | filter policies SNS lets one topic have (a raised     |
// |                  |                              | quota); more filtered subscriptions are refused       |
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RemovalPolicy } from 'aws-cdk-lib';
import type { Node } from 'constructs';
import { ConfigError } from '../shared/config/errors.js';
import { parseConfigText } from '../shared/config/loadConfig.js';
import { DeploymentError } from './deploymentError.js';
import type { MealOrderNotifierStackProps } from './mealOrderNotifierStack.js';

export const EXAMPLE_CONFIG_PATH = fileURLToPath(new URL('./example.config.json', import.meta.url));
export const DEFAULT_STACK_NAME = 'MealOrderNotifier';

export interface DeploymentSettings {
  readonly stackName: string;
  readonly stackProps: MealOrderNotifierStackProps;
}

/** @throws DeploymentError for an unusable context value, ConfigError for a config file problem */
export function deploymentSettings(node: Node): DeploymentSettings {
  const text = (key: string): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string')
      throw new DeploymentError(`-c ${key}: expected text, got ${JSON.stringify(value)}`);
    return value;
  };
  const choice = <T>(key: string, choices: Record<string, T>, fallback: T): T => {
    const value = text(key);
    if (value === undefined) return fallback;
    const chosen = choices[value];
    if (chosen === undefined) {
      throw new DeploymentError(`-c ${key}=${value}: expected one of ${Object.keys(choices).join(', ')}`);
    }
    return chosen;
  };

  const stackName = text('stackName') ?? DEFAULT_STACK_NAME;
  if (!/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(stackName)) {
    throw new DeploymentError(
      `-c stackName=${stackName}: a stack name is up to 128 letters, digits and hyphens, starting with a letter`,
    );
  }
  const alarmEmail = text('alarmEmail');
  if (alarmEmail !== undefined && !/^[^\s@]+@[^\s@]+$/.test(alarmEmail)) {
    throw new DeploymentError(`-c alarmEmail=${alarmEmail}: not an e-mail address`);
  }
  const pollerMemory = text('pollerMemory');
  if (pollerMemory !== undefined && !/^\d+$/.test(pollerMemory)) {
    throw new DeploymentError(`-c pollerMemory=${pollerMemory}: expected whole megabytes, 128 to 10240`);
  }
  const pollerMemoryMb = pollerMemory === undefined ? undefined : Number(pollerMemory);
  if (pollerMemoryMb !== undefined && (pollerMemoryMb < 128 || pollerMemoryMb > 10_240)) {
    throw new DeploymentError(`-c pollerMemory=${pollerMemory}: expected whole megabytes, 128 to 10240`);
  }
  const filterPolicies = text('snsFilterPolicies');
  if (filterPolicies !== undefined && !/^[1-9]\d{0,5}$/.test(filterPolicies)) {
    throw new DeploymentError(
      `-c snsFilterPolicies=${filterPolicies}: expected a whole number, your account's SNS quota of filter policies per topic`,
    );
  }
  const configPath = text('config') ?? EXAMPLE_CONFIG_PATH;
  const secretsPrefix = text('secretsPrefix');
  return {
    stackName,
    stackProps: {
      description: 'meal-order-notifier: polls the Meal-Ordering Admin API and delivers order events',
      config: readConfigJson(configPath),
      configSource: configPath,
      ...(secretsPrefix === undefined ? {} : { secretsPrefix }),
      ...(alarmEmail === undefined ? {} : { alarmEmail }),
      removalPolicy: choice(
        'removalPolicy',
        { retain: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE, destroy: RemovalPolicy.DESTROY },
        RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      ),
      pollingEnabled: choice('polling', { on: true, off: false }, true),
      ...(pollerMemoryMb === undefined ? {} : { pollerMemoryMb }),
      ...(filterPolicies === undefined ? {} : { snsFilterPolicies: Number(filterPolicies) }),
    },
  };
}

/**
 * The file's JSON as written; the stack validates it. Unreadable files and JSON syntax errors get the
 * local runner's messages (line and column, never the text, which may hold a pasted secret).
 */
function readConfigJson(path: string): unknown {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? String(error)})`;
    throw new ConfigError(path, [{ path: '$', message: why }], { summary: `config file ${path} ${why}` });
  }
  const json = content.startsWith('\uFEFF') ? content.slice(1) : content;
  try {
    return JSON.parse(json);
  } catch {
    // Throws the ConfigError naming the line and column.
    parseConfigText(json, path);
    throw new ConfigError(path, [{ path: '$', message: 'invalid JSON' }]);
  }
}
