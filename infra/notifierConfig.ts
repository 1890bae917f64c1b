// The config file the stack is driven by (the same file the local runner reads), validated once, and the
// config each function has compiled into its bundle: the file as written, minified and cut to the parts
// that function reads, so a function sees no more of the config than it needs. Defaults are left for the
// function's own parser to fill, exactly as the local runner would, but for one that differs on AWS: an
// organization without `pollIntervalSeconds` is polled every AWS_DEFAULT_POLL_INTERVAL_SECONDS, written
// into the poller's config so that the poller, its schedules and its alarms all read the same interval.
import type { Config, SubscriberType } from '../shared/config/configSchema.js';
import { parseConfig } from '../shared/config/loadConfig.js';
import { AWS_DEFAULT_POLL_INTERVAL_SECONDS } from '../shared/poll/awsPollSettings.js';

/** The subscriber types delivered through an SQS queue and a delivery function. */
export type QueueSubscriberType = Exclude<SubscriberType, 'email'>;

type JsonObject = { readonly [key: string]: unknown };

export class NotifierConfig {
  /** The config with every default filled in, as the functions will see it. */
  readonly parsed: Config;
  readonly #written: JsonObject;

  /**
   * @param written the config's JSON as written in the file
   * @param source names the config in error messages, e.g. the file path
   * @throws ConfigError naming the JSON path of every problem
   */
  constructor(written: unknown, source?: string) {
    const onAws = withAwsDefaults(written);
    this.parsed = parseConfig(onAws, source);
    // Validation passed, so it is an object of the documented shape.
    this.#written = onAws as JsonObject;
  }

  /** The poller polls: it reads the API settings and the organizations, never the subscribers. */
  pollerJson(): string {
    return this.#cut('poller', { api: this.#written.api, organizations: this.#written.organizations });
  }

  /**
   * A delivery function reads the subscribers of its type. The organizations stay because the config
   * requires them; `smtp` goes with the e-mail subscribers that required it (SNS sends e-mail on AWS).
   */
  deliveryJson(type: QueueSubscriberType): string {
    const subscribers = Array.isArray(this.#written.subscribers) ? this.#written.subscribers : [];
    return this.#cut(`${type}-delivery`, {
      api: this.#written.api,
      organizations: this.#written.organizations,
      subscribers: subscribers.filter((subscriber) => (subscriber as JsonObject).type === type),
    });
  }

  /** The digest function reads the organizations and the e-mail subscribers with a digest. */
  digestJson(): string {
    const subscribers = Array.isArray(this.#written.subscribers) ? this.#written.subscribers : [];
    return this.#cut('digest', {
      api: this.#written.api,
      organizations: this.#written.organizations,
      smtp: this.#written.smtp,
      subscribers: subscribers.filter((subscriber) => {
        const written = subscriber as JsonObject;
        return written.type === 'email' && written.digest !== undefined;
      }),
    });
  }

  #cut(functionName: string, cut: JsonObject): string {
    const json = JSON.stringify(cut);
    // A cut the function's own parser would refuse would only fail at its first cold start; fail here.
    parseConfig(JSON.parse(json), `NOTIFIER_CONFIG of ${functionName}`);
    return json;
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
