// What invokes the poller: an organization's schedule, `{ "organizationId": "…" }`, or a batch of ticks
// from the tick queue (an SQS event, each record's body a Tick). Both become triggers of one organization.
import * as z from 'zod';
import { TickSchema } from '../shared/tickQueue.js';
import { InvalidPollerEventError } from './errors.js';

export interface ScheduleTrigger {
  source: 'schedule';
  organizationId: string;
}

export interface TickTrigger {
  source: 'tick';
  organizationId: string;
  /** When the cycle that sent it said the next one is due (epoch ms). */
  dueAt: number;
  messageId: string;
}

export type PollTrigger = ScheduleTrigger | TickTrigger;

/** A record whose body is not a tick: logged and dropped, since the schedule keeps polling anyway. */
export interface MalformedTick {
  messageId: string;
  problem: string;
}

export type PollerEvent =
  | { kind: 'schedule'; trigger: ScheduleTrigger }
  | { kind: 'ticks'; triggers: TickTrigger[]; malformed: MalformedTick[] };

const ScheduleEventSchema = z.object({ organizationId: z.string().min(1) });
const SqsEventSchema = z.object({
  Records: z.array(
    z.looseObject({ eventSource: z.literal('aws:sqs'), messageId: z.string(), body: z.string() }),
  ),
});

/** @throws InvalidPollerEventError when the event is neither the schedule's nor the tick queue's */
export function parsePollerEvent(event: unknown): PollerEvent {
  const schedule = ScheduleEventSchema.safeParse(event);
  if (schedule.success) {
    return {
      kind: 'schedule',
      trigger: { source: 'schedule', organizationId: schedule.data.organizationId },
    };
  }
  const sqs = SqsEventSchema.safeParse(event);
  if (!sqs.success) throw new InvalidPollerEventError();
  const triggers: TickTrigger[] = [];
  const malformed: MalformedTick[] = [];
  for (const record of sqs.data.Records) {
    const tick = TickSchema.safeParse(parseJson(record.body));
    if (tick.success) triggers.push({ source: 'tick', ...tick.data, messageId: record.messageId });
    else malformed.push({ messageId: record.messageId, problem: z.prettifyError(tick.error) });
  }
  return { kind: 'ticks', triggers, malformed };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
