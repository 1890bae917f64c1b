// The zero-config demo in one process: the Admin API simulator, a webhook receiver that verifies
// signatures, and the real runner (SQLite state in a temporary directory, the config validated like any
// other) between them, narrated until the stop signal; then everything closes and the directory goes.
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import type { OutputSink } from '../output/outputSink.js';
import { type LocalRuntime, openLocalRuntime } from '../runtime/localRuntime.js';
import { runUntilStopped } from '../runtime/runUntilStopped.js';
import { DemoNarrator } from './demoNarrator.js';
import {
  DEMO_ORGANIZATION,
  DEMO_SECRET_VARIABLE,
  DEMO_TOKEN_VARIABLE,
  demoConfig,
  demoSimulatorOptions,
  demoWebhookSecret,
} from './demoSetup.js';
import { type DemoWebhookReceiver, startDemoWebhookReceiver } from './demoWebhookReceiver.js';

export interface DemoOptions {
  seed: number;
  intervalSeconds: number;
  /** Where the story is told (stdout's sink), with its colour or none. */
  output: OutputSink;
  /** Ends the demo gracefully when aborted. */
  stop: AbortSignal;
}

export async function runDemo(options: DemoOptions): Promise<void> {
  const { stop } = options;
  const narrator = new DemoNarrator(options.output);
  const dir = await mkdtemp(join(tmpdir(), 'meal-notifier-demo-'));
  // A second Ctrl-C exits at once, past the cleanup below; the directory must go then too.
  const removeOnExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeOnExit);
  let simulator: RunningSimulator | undefined;
  let receiver: DemoWebhookReceiver | undefined;
  let runtime: LocalRuntime | undefined;
  let startedAt = Date.now();
  let stateRemoved = false;
  try {
    simulator = await startSimulator(demoSimulatorOptions(options.seed));
    const secret = demoWebhookSecret();
    receiver = await startDemoWebhookReceiver(secret);
    const configPath = join(dir, 'demo.json');
    const config = demoConfig(
      {
        baseUrl: simulator.baseUrl,
        organizationId: simulator.organization.id,
        timeZone: simulator.world.timeZone,
        webhookUrl: receiver.url,
      },
      options.intervalSeconds,
    );
    await writeFile(configPath, JSON.stringify(config, null, 2));
    runtime = await openLocalRuntime(configPath, {
      env: { [DEMO_TOKEN_VARIABLE]: simulator.token, [DEMO_SECRET_VARIABLE]: secret },
      stop,
    });
    const [kitchen] = simulator.world.establishments();
    narrator.banner({
      simulatorUrl: simulator.baseUrl,
      seed: options.seed,
      organization: DEMO_ORGANIZATION,
      webhookUrl: receiver.url,
      statePath: `${runtime.statePath} (removed on exit)`,
      intervalSeconds: options.intervalSeconds,
      closing: kitchen && { establishment: kitchen.name, at: kitchen.order_closing_time },
    });
    stop.addEventListener('abort', () => narrator.stopping(), { once: true });
    startedAt = Date.now();
    const { world } = simulator;
    const webhook = receiver;
    await runUntilStopped(
      runtime,
      {
        onReport: (_entry, report) => narrator.cycle(report, (uuid) => world.getOrder(uuid)),
        onCycleError: ({ organization }, error) => narrator.cycleFailed(organization.name, error),
        onCleanupFailure: (failure) => narrator.cycleFailed('after the cycle', failure),
        onDelivery: (report) => narrator.delivery(report, webhook.received(report.eventId)),
        onDeliveryError: (error) => narrator.cycleFailed('delivery', error),
        // The demo's state file is its own: no other run delivers it.
        onDeliveryStandby: () => {},
      },
      stop,
    );
  } finally {
    // The runner first: it may still be answering the last request of the simulator.
    await runtime?.close();
    await Promise.all([receiver?.close(), simulator?.close()]);
    await rm(dir, { recursive: true, force: true });
    process.off('exit', removeOnExit);
    stateRemoved = true;
  }
  narrator.summary(Date.now() - startedAt, stateRemoved);
}
