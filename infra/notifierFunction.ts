// What every notifier Lambda shares: Node.js 24 on ARM64, bundled from its TypeScript handler by the local
// esbuild (no Docker) into one minified ES module with source maps and, for the functions that read it,
// the notifier config compiled in, as checked at synth; its own log group with a retention; a role that starts with nothing but
// writing to that log group (every other permission is a grant); the Powertools settings; and the
// synth-time check that its environment fits Lambda's 4 KB.
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Token } from 'aws-cdk-lib';
import { type IGrantable, type IPrincipal, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Config } from '../shared/config/configSchema.js';
import type { ConfigFacts } from '../shared/contracts/bundledConfig.js';
import { writeBundledConfigFile } from './bundledConfigFile.js';
import { assertEnvironmentFits } from './lambdaEnvironmentSize.js';
import { METRICS_NAMESPACE } from './notifierMetrics.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const FUNCTIONS_DIR = fileURLToPath(new URL('../functions/', import.meta.url));

/**
 * Bundled code that is CommonJS inside (the AWS SDK's helpers) may call `require` for Node's
 * built-ins, which an ES module does not have; esbuild's shim uses this one when it exists.
 */
const REQUIRE_BANNER =
  "import { createRequire as notifierCreateRequire } from 'node:module'; const require = notifierCreateRequire(import.meta.url);";

export interface NotifierFunctionProps {
  /** The handler module under `functions/`, e.g. `poller/handler.ts`; it exports `handler`. */
  readonly handlerModule: string;
  /**
   * The Powertools service name (POWERTOOLS_SERVICE_NAME), which must be the one the handler gives its
   * Metrics, since it is the `service` dimension the alarms and dashboard look metrics up by.
   */
  readonly serviceName: string;
  /** Shown in the Lambda console. */
  readonly description: string;
  /** @default 256 */
  readonly memorySize?: number;
  /** @default Duration.seconds(30) */
  readonly timeout?: Duration;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /**
   * What `cdk destroy` does with the log group; a kept one still expires its events after `logRetention`.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
  /**
   * The function's config as the config parser returned it, compiled into the bundle with its digest
   * (shared/contracts/bundledConfig.ts), injected from a file (bundledConfigFile.ts), rather than set in the environment, whose 4 KB would cap the number
   * of organizations and subscribers.
   * @default none; the function reads no config
   */
  readonly config?: Config;
  /** Compiled beside the config (the poller's: which organizations took the AWS default interval). */
  readonly configFacts?: ConfigFacts;
  /** The function's own variables, beside NODE_OPTIONS and the Powertools ones. @default {} */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * For each variable whose value holds a CloudFormation token, a token-free value at least as long, so
   * the 4 KB check can count it (see lambdaEnvironmentSize.ts).
   * @default {}
   */
  readonly environmentStandIns?: Readonly<Record<string, string>>;
}

export class NotifierFunction extends Construct implements IGrantable {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly serviceName: string;
  readonly grantPrincipal: IPrincipal;

  constructor(scope: Construct, id: string, props: NotifierFunctionProps) {
    super(scope, id);
    this.serviceName = props.serviceName;
    const environment: Record<string, string> = {
      // Stack traces name the TypeScript source line, not a column of the minified bundle.
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: props.serviceName,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      ...props.environment,
    };
    assertEnvironmentFits(props.serviceName, sizedEnvironment(environment, props.environmentStandIns ?? {}));

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    // Not the default role: that one carries the AWS managed AWSLambdaBasicExecutionRole, which may write
    // to any log group in the account.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `meal-order-notifier ${props.serviceName} function`,
    });
    this.logGroup.grantWrite(this.role);
    this.grantPrincipal = this.role;

    this.function = new NodejsFunction(this, 'Function', {
      entry: `${FUNCTIONS_DIR}${props.handlerModule}`,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(30),
      role: this.role,
      logGroup: this.logGroup,
      environment,
      // Only sets a variable for SDK v2, which nothing here uses; v3 reuses connections already.
      awsSdkConnectionReuse: false,
      bundling: {
        forceDockerBundling: false,
        // esbuild's per-file size summary would fill `cdk synth --quiet`; its warnings and errors still show.
        logLevel: LogLevel.WARNING,
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        banner: REQUIRE_BANNER,
        minify: true,
        // Error classes name themselves with `new.target.name` (ConfigError, SecretNotSetError, …); minified
        // names would turn those into `dU` in every log line and errorType.
        keepNames: true,
        sourceMap: true,
        sourceMapMode: SourceMapMode.DEFAULT,
        // File and line are what a stack trace needs; the sources would double the asset.
        sourcesContent: false,
        // The SDK clients the code was tested with, not whichever version the runtime happens to carry.
        bundleAwsSDK: true,
        esbuildArgs: {
          '--alias': [
            // Credentials from the environment only, where Lambda puts them; the rest of the SDK's default
            // chain stays out of the bundle (functions/shared/environmentCredentials.ts).
            `@aws-sdk/credential-provider-node=${FUNCTIONS_DIR}shared/environmentCredentials.ts`,
            // No client here streams events (functions/shared/noEventStreams.ts).
            `@smithy/core/event-streams=${FUNCTIONS_DIR}shared/noEventStreams.ts`,
          ],
        },
        // Injected from a file: on the command line (a `define`) a large config outgrew the OS's 128 KB
        // argument limit (bundledConfigFile.ts).
        ...(props.config === undefined
          ? {}
          : { inject: [writeBundledConfigFile(props.config, props.configFacts)] }),
      },
    });
  }
}

/** The environment as counted against the limit: token-holding values replaced by their stand-ins. */
function sizedEnvironment(
  environment: Readonly<Record<string, string>>,
  standIns: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => {
      if (!Token.isUnresolved(value)) return [key, value];
      const standIn = standIns[key];
      // A bug in the stack, not a user mistake: every token-holding variable must be sized.
      if (standIn === undefined)
        throw new Error(`environment variable ${key} holds a token but has no stand-in`);
      return [key, standIn];
    }),
  );
}
