// Stands in for @smithy/core/event-streams in the function bundles (an esbuild alias set in
// infra/notifierFunction.ts). The SDK's HTTP protocol imports it, dynamically, only for an operation that
// streams events, and DynamoDB, SQS, SNS and Secrets Manager have none; bundled, that one dynamic import
// added 20 KB and wrapped some 160 of the SDK's modules in lazy initializers, about 7 % of a cold import.

function notBundled(): never {
  throw new Error(
    'AWS event streams are not bundled into the notifier functions (see functions/shared/noEventStreams.ts)',
  );
}

export class EventStreamSerde {
  constructor() {
    notBundled();
  }
}

export const eventStreamSerdeProvider = notBundled;
