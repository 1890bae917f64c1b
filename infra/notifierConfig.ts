// The config file the stack is driven by (the same file the local runner reads), validated once, and the
// config each function reads: the file as written, cut to the parts that function reads, so a function
// sees no more of the config than it needs. Each cut is parsed here by the functions' own parser, which
// fills the defaults exactly as the local runner would; what it returns is what the stack compiles into
// the bundle, checked (shared/contracts/bundledConfig.ts). One default differs on AWS: an organization
// without `pollIntervalSeconds` is polled every AWS_DEFAULT_POLL_INTERVAL_SECONDS, written into the
// poller's config so that the poller, its schedules and its alarms all read the same interval.
import type { Config, SubscriberType } from '../shared/config/configSchema.js';
import { parseConfig } from '../shared/config/loadConfig.js';
import { AWS_DEFAULT_POLL_INTERVAL_SECONDS } from '../shared/contracts/awsPollSettings.js';

/** The subscriber types delivered through an SQS queue and a delivery function. */
export type QueueSubscriberType = Exclude<SubscriberType, 'email'>;

type JsonObject = { readonly [key: string]: unknown };

export class NotifierConfig {
  /** The config with every default filled in, as the functions will see it. */
  readonly parsed: Config;
  /**
   * The organizations that set no `pollIntervalSeconds` and were given the AWS default: only theirs follows
   * their size (awsPollSettings.ts); a written 60 means 60.
   */
  readonly awsDefaultIntervals: readonly string[];
  readonly #written: JsonObject;

  /**
   * @param written the config's JSON as written in the file
   * @param source names the config in error messages, e.g. the file path
   * @throws ConfigError naming the JSON path of every problem
   */
  constructor(written: unknown, source?: string) {
    const onAws = withAwsDefaults(written);
    this.parsed = parseConfig(onAws, source);
    this.awsDefaultIntervals = organizationsWithoutInterval(written, this.parsed);
    // Validation passed, so it is an object of the documented shape.
    this.#written = onAws as JsonObject;
  }

  /**
   * The poller's config as written, minified, e.g. for NOTIFIER_CONFIG: it polls, so it reads the API
   * settings and the organizations, never the subscribers.
   */
  pollerJson(): string {
    return JSON.stringify(this.#pollerCut());
  }

  /** The poller's config as its parser returns it: what its bundle carries. */
  pollerConfig(): Config {
    return this.#parsed('poller', this.#pollerCut());
  }

  /**
   * A delivery function's config as written, minified: it reads the subscribers of its type. The
   * organizations stay because the config requires them; `smtp` goes with the e-mail subscribers that
   * required it (SNS sends e-mail on AWS).
   */
  deliveryJson(type: QueueSubscriberType): string {
    return JSON.stringify(this.#deliveryCut(type));
  }

  /** A delivery function's config as its parser returns it: what its bundle carries. */
  deliveryConfig(type: QueueSubscriberType): Config {
    return this.#parsed(`${type}-delivery`, this.#deliveryCut(type));
  }

  /**
   * The publisher's config as written, minified: it reads the organizations only, for their highlight
   * words (the e-mail body it composes flags notes with them); the API settings stay because the config
   * requires them.
   */
  publisherJson(): string {
    return JSON.stringify(this.#pollerCut());
  }

  /** The publisher's config as its parser returns it: what its bundle carries. */
  publisherConfig(): Config {
    return this.#parsed('publisher', this.#pollerCut());
  }

  #pollerCut(): JsonObject {
    return { api: this.#written.api, organizations: this.#written.organizations };
  }

  #deliveryCut(type: QueueSubscriberType): JsonObject {
    const subscribers = Array.isArray(this.#written.subscribers) ? this.#written.subscribers : [];
    return {
      api: this.#written.api,
      organizations: this.#written.organizations,
      subscribers: subscribers.filter((subscriber) => (subscriber as JsonObject).type === type),
    };
  }

  /** The digest function's config as written, minified: the organizations and the e-mail subscribers with a
   * digest, with `smtp`, which the parser requires beside e-mail subscribers. */
  digestJson(): string {
    return JSON.stringify(this.#digestCut());
  }

  /** The digest function's config as its parser returns it: what its bundle carries. */
  digestConfig(): Config {
    return this.#parsed('digest', this.#digestCut());
  }

  #digestCut(): JsonObject {
    const subscribers = Array.isArray(this.#written.subscribers) ? this.#written.subscribers : [];
    return {
      api: this.#written.api,
      organizations: this.#written.organizations,
      smtp: this.#written.smtp,
      subscribers: subscribers.filter((subscriber) => {
        const written = subscriber as JsonObject;
        return written.type === 'email' && written.digest !== undefined;
      }),
    };
  }

  /** A cut the function's own parser would refuse would only fail at its first cold start; fail here. */
  #parsed(functionName: string, cut: JsonObject): Config {
    return parseConfig(JSON.parse(JSON.stringify(cut)), `NOTIFIER_CONFIG of ${functionName}`);
  }
}

/**
 * `written` with each organization that sets no `pollIntervalSeconds` given the AWS default; anything not
 * of the documented shape is left as it is, for the parser to name.
 */
function withAwsDefaults(written: unknown): unknown {
  if (typeof written !== 'object' || written === null || Array.isArray(written)) return written;
  const { organizations } = written as JsonObject;
  if (!Array.isArray(organizations)) return written;
  return {
    ...written,
    organizations: organizations.map((organization: unknown) =>
      typeof organization === 'object' &&
      organization !== null &&
      !Array.isArray(organization) &&
      !('pollIntervalSeconds' in organization)
        ? { ...organization, pollIntervalSeconds: AWS_DEFAULT_POLL_INTERVAL_SECONDS }
        : organization,
    ),
  };
}

/**
 * The ids, as parsed (lower-cased, as the poller compares them), of the written organizations that set no
 * `pollIntervalSeconds`; the config is valid by now, its organizations in the written order.
 */
function organizationsWithoutInterval(written: unknown, parsed: Config): string[] {
  const { organizations } = written as { organizations: JsonObject[] };
  return organizations.flatMap((organization, index) => {
    const id = parsed.organizations[index]?.id;
    return 'pollIntervalSeconds' in organization || id === undefined ? [] : [id];
  });
}
