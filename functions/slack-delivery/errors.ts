// A Slack subscriber whose secret does not hold a webhook URL. The value is never quoted: it may be the
// URL with a typo, which is still the credential.

export class SlackWebhookSecretError extends Error {
  readonly subscriberId: string;

  constructor(subscriberId: string, secretName: string) {
    super(
      `Slack subscriber "${subscriberId}": secret ${secretName} does not hold an http:// or https:// incoming-webhook URL`,
    );
    this.name = new.target.name;
    this.subscriberId = subscriberId;
  }
}
