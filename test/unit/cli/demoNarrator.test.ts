import { describe, expect, it } from 'vitest';
import { DemoNarrator } from '../../../cli/demo/demoNarrator.js';
import type { DeliveryReport } from '../../../shared/delivery/outboxDelivery.js';
import { parsedOrder } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makePrepChanged } from '../../support/prepChangedFixtures.js';
import { makePrepSummary } from '../../support/prepSummaryFixtures.js';
import { captureSink } from '../../support/sinkCapture.js';
import { hostile, obeyedControls, withoutOwnColour } from '../../support/terminalControls.js';
import { pollReport } from './pollReportFixture.js';

const at = (time: string) => Date.parse(`2026-03-05T${time}Z`);

function narrator(): { narrator: DemoNarrator; lines: () => string[]; setNow: (time: string) => void } {
  const stdout = captureSink();
  let now = at('10:00:00');
  return {
    narrator: new DemoNarrator(stdout.sink, () => now),
    lines: () =>
      stdout
        .text()
        .split('\n')
        .filter(Boolean)
        .map((line) => line.replace(/^\d\d:\d\d:\d\d {2}/, '')),
    setNow: (time) => {
      now = at(time);
    },
  };
}

function delivered(eventId: string, reference: string): DeliveryReport {
  return {
    subscriberId: 'demo-webhook',
    eventId,
    eventType: 'order.created',
    reference,
    outcome: { kind: 'delivered' },
    attempts: 1,
    state: 'delivered',
    eventTime: '2026-03-05T10:00:00.000Z',
  };
}

describe('the demo narrator', () => {
  it('announces the baseline once, then each event as detected and as delivered, with both latencies', () => {
    const { narrator: demo, lines, setNow } = narrator();
    demo.cycle(pollReport({ ordersSeen: 28 }), () => undefined);
    demo.cycle(pollReport(), () => undefined);
    const created = '2026-03-05T09:59:58.500000Z';
    const event = makeOrderEvent({ order: { created_at: created, reference: 'NS-1031' } });
    setNow('10:00:03');
    demo.cycle(pollReport({ events: [event] }), () => parsedOrder({ created_at: created }));
    demo.delivery(delivered(event.id, 'NS-1031'), {
      eventId: event.id,
      verified: true,
      receivedAt: at('10:00:03') + 25,
    });
    const name = event.data.order.establishment.name;
    expect(lines()).toEqual([
      'baseline   North School: 28 orders recorded silently; watching for changes',
      `detected   created    NS-1031  ${name.padEnd(18)}  4.5 s after it happened`,
      'delivered  created    NS-1031  signature verified  25 ms after detection',
    ]);
  });

  it('announces a prep summary by establishment and count, and an order event after closing as such', () => {
    const { narrator: demo, lines } = narrator();
    const asked: string[] = [];
    const summary = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }], { incompleteReason: 'late' });
    const late = makeOrderEvent({ order: { reference: 'NS-1031' }, summarySent: () => true });
    demo.cycle(pollReport({ events: [summary, late] }), (uuid) => {
      asked.push(uuid);
      return undefined;
    });
    expect(lines()).toEqual([
      expect.stringMatching(/^baseline /),
      'detected   prep_summary  Main Canteen  1 order for Tue 24 Nov (incomplete)  0 ms after closing',
      `detected   created    NS-1031  ${late.data.order.establishment.name.padEnd(18)}  after closing`,
    ]);
    // A summary is about an establishment: there is no order to look up.
    expect(asked).toEqual([late.subject]);
  });

  it('shows a delivered prep summary by establishment and day, not as an order', () => {
    const { narrator: demo, lines } = narrator();
    const summary = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);
    demo.delivery(
      {
        ...delivered(summary.id, 'Main Canteen 2026-11-24'),
        eventType: 'establishment.prep_summary',
      },
      { eventId: summary.id, verified: true, receivedAt: at('10:00:00') },
    );
    expect(lines()).toEqual([
      expect.stringMatching(
        /^delivered {2}prep_summary {2}Main Canteen {2}summary for Tue 24 Nov {2}signature verified {2}/,
      ),
    ]);
  });

  it('announces and shows a prep_changed by establishment and day, without looking up an order', () => {
    const { narrator: demo, lines } = narrator();
    const asked: string[] = [];
    const changed = makePrepChanged();
    demo.cycle(pollReport({ events: [changed] }), (uuid) => {
      asked.push(uuid);
      return undefined;
    });
    demo.delivery(
      { ...delivered(changed.id, 'Main Canteen 2026-11-26'), eventType: 'establishment.prep_changed' },
      { eventId: changed.id, verified: true, receivedAt: at('10:00:00') },
    );
    expect(lines()).toEqual([
      expect.stringMatching(/^baseline /),
      'detected   prep_changed  Main Canteen  Thu 26 Nov: 2 orders · Lasagne: 42 → 40 · Vegetable soup: 12 → 13',
      expect.stringMatching(
        /^delivered {2}prep_changed {2}Main Canteen {2}changes for Thu 26 Nov {2}signature verified {2}/,
      ),
    ]);
    expect(asked).toEqual([]);
  });

  it('says in the banner when the demo establishment closes and what follows', () => {
    const { narrator: demo, lines } = narrator();
    demo.banner({
      simulatorUrl: 'http://127.0.0.1:1/api/v1/admin',
      seed: 42,
      organization: 'North School',
      webhookUrl: 'http://127.0.0.1:2/hooks/orders',
      statePath: '/tmp/state.db',
      intervalSeconds: 3,
      closing: { establishment: 'Main Canteen', at: '10:01:00' },
    });
    expect(lines().join('\n')).toContain(
      "Main Canteen closes today's orders at 10:01:00: the runner then sends its prep\nsummary (what to cook)",
    );
  });

  it('shows a failed attempt and a signature the receiver could not verify', () => {
    const { narrator: demo, lines } = narrator();
    const retry: DeliveryReport = {
      ...delivered('e1', 'NS-1'),
      state: 'queued',
      outcome: { kind: 'retry', reason: 'http://127.0.0.1:1 answered 500' },
    };
    demo.delivery(retry, undefined);
    demo.delivery(delivered('e2', 'NS-2'), { eventId: 'e2', verified: false, receivedAt: at('10:00:00') });
    expect(lines()).toEqual([
      'retrying   created    NS-1     attempt 1: http://127.0.0.1:1 answered 500',
      expect.stringMatching(/^delivered {2}created {4}NS-2 {5}signature NOT verified/),
    ]);
  });

  it('shows, not obeys, the control characters of the data it tells, in colour or not', () => {
    for (const isTTY of [false, true]) {
      const stdout = captureSink({ isTTY });
      const demo = new DemoNarrator(stdout.sink, () => at('10:00:03'));
      const event = makeOrderEvent({
        order: {
          reference: hostile('NS-1'),
          establishment: { ...parsedOrder().establishment, name: hostile('Canteen') },
          notes: hostile('Allergic to nuts'),
        },
      });
      demo.cycle(pollReport(), () => undefined);
      demo.cycle(pollReport({ events: [event], failures: [hostile('listing')] }), () => undefined);
      demo.delivery(
        {
          ...delivered(event.id, event.data.order.reference),
          state: 'queued',
          outcome: { kind: 'retry', reason: hostile('answered 500') },
        },
        undefined,
      );
      demo.cycleFailed(hostile('North'), new Error(hostile('refused')));
      expect(obeyedControls(withoutOwnColour(stdout.text()))).toEqual([]);
      expect(stdout.text()).toContain('NS-1\\x1b]52;c;SGVsbG8=\\x07\\x1b[2J\\x0dX\\x9b31m\\u202e!');
      expect(stdout.text().includes('\u001b[36m')).toBe(isTTY);
    }
  });

  it('sums up the run: cycles, events by type, deliveries, verified signatures and latencies', () => {
    const { narrator: demo, lines } = narrator();
    const created = makeOrderEvent({ order: { reference: 'NS-1' } });
    const canceled = makeOrderEvent({ type: 'order.canceled', order: { reference: 'NS-2' } });
    demo.cycle(pollReport(), () => undefined);
    demo.cycle(pollReport({ events: [created, canceled] }), () => undefined);
    demo.delivery(delivered(created.id, 'NS-1'), {
      eventId: created.id,
      verified: true,
      receivedAt: at('10:00:00') + 40,
    });
    demo.summary(65_000, true);
    expect(lines()).toEqual(
      expect.arrayContaining([
        'Stopped after 1 min 5 s.',
        '  cycles     2 (0 failed)',
        '  detected   2 events: 1 created, 1 canceled',
        '  delivered  1 to the webhook, 1 with a verified signature, 0 failed attempts',
        expect.stringMatching(/^ {2}latency {4}detection median .*; delivery median 40 ms, max 40 ms$/),
        '  The temporary state directory was removed.',
      ]),
    );
  });
});
