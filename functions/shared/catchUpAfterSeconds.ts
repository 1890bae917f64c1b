// CATCH_UP_AFTER_SECONDS, set by the stack on the poller and the publisher: the catch-up thresholds of the
// config's Slack and e-mail subscribers, in whole seconds, comma-separated; `none` when no one gets
// catch-ups. Neither function reads the subscribers themselves (the poller's config has none).
import * as z from 'zod';

export const CatchUpAfterSecondsSchema = z
  .string()
  .regex(/^(none|\d+(,\d+)*)$/, { error: 'must be whole seconds, comma-separated, or none' })
  .transform((text) => (text === 'none' ? [] : text.split(',').map(Number)));
