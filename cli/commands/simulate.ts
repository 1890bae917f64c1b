// `meal-notifier simulate`: runs the Admin API simulator, one of its named worlds with a lively scenario,
// until interrupted, and prints the connection settings to paste into another terminal.
import { Command } from 'commander';
import type { MailInbox } from '../../simulator/inbox/mailInbox.js';
import { type SlackInbox, startSlackInbox } from '../../simulator/inbox/slackInbox.js';
import { type SlackWebApiStandIn, startSlackWebApi } from '../../simulator/inbox/slackWebApiServer.js';
import { notifierConfigFor, organizationConnections, RECEIVER_ENV } from '../../simulator/notifierConfig.js';
import { PICKUP_FORMATS } from '../../simulator/pickupFormat.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { WORLD_NAMES, WORLD_PRESETS } from '../../simulator/worldPresets.js';
import { CliUsageError } from '../errors.js';
import { choiceFlag, integerFlag, numberFlag, timeZoneFlag } from '../flags.js';
import { type OutputSink, stdoutSink } from '../output/outputSink.js';
import {
  formatReceivedMail,
  formatReceivedSlackMessage,
  SHOW_CHOICES,
  type Show,
} from '../output/receivedMessage.js';
import { formatSimulatorBanner } from '../output/simulatorBanner.js';
import { printSlackChannel, type SlackChannelPrinter } from '../output/slackChannelPrinter.js';

interface SimulateOptions {
  world: string;
  port: string;
  seed: string;
  /** Undefined: the world's own pace. */
  speed?: string;
  /** Undefined: the world's own orders. */
  orders?: string;
  errorRate: string;
  latency: string;
  pickupFormat: string;
  timeZone: string;
  requestsPerMinute: string;
  bare?: boolean;
  receivers?: boolean;
  /** Undefined: `summary`. */
  show?: string;
  /** Undefined: every establishment keeps the world's hours. */
  closingIn?: string;
}

export interface SimulateCommandDeps {
  /** Where the lines go; default stdout's sink. */
  stdout?: OutputSink;
  /** Stops the simulator when aborted; default SIGINT or SIGTERM. */
  stopSignal?: AbortSignal;
  /** Called once the simulator listens, e.g. for tests to reach it. */
  onStarted?: (simulator: RunningSimulator) => void;
}

export function simulateCommand(deps: SimulateCommandDeps = {}): Command {
  return new Command('simulate')
    .description('Run a local Admin API simulator whose orders arrive and change over time')
    .option('--world <name>', `the simulated world: ${WORLD_NAMES.join(', ')}`, 'demo')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', '4010')
    .option('--seed <n>', 'seed of the simulated world; the same seed gives the same world', '42')
    .option(
      '--speed <x>',
      'scenario speed, 0 freezes the world (default: 15 for demo, a new order every ~4 s; 1, real time, for the others)',
    )
    .option(
      '--orders <n>',
      "orders each organization starts with (default: the world's; a preset keeps its mix of statuses)",
    )
    .option('--error-rate <ratio>', 'share of requests answered 500, from 0 to 1', '0')
    .option('--latency <ms>', 'delay added to every response, in ms', '0')
    .option('--pickup-format <form>', `pickup_at form: ${PICKUP_FORMATS.join(', ')}`, 'mixed')
    .option('--time-zone <zone>', 'IANA time zone that defines "today"', 'Europe/Lisbon')
    .option('--requests-per-minute <n>', 'rate limit per token', '50')
    .option(
      '--closing-in <seconds>',
      "each organization's first establishment closes today's orders this many seconds after the start (to see a prep summary soon)",
    )
    .option('--bare', 'answer GET /orders with a bare array, the old form without links and meta')
    .option(
      '--receivers',
      "also run a Slack-like webhook endpoint, a stand-in for Slack's Web API (a Slack app's board) and an SMTP server, show what they receive, and add subscribers for them to the config printed",
    )
    .option(
      '--show <what>',
      "what --receivers prints of each message: summary (one line, the default) or full (that line, then the Slack blocks as text or the e-mail's text part; each Slack app board reprinted with its thread as it stands once its edits pause)",
    )
    .addHelpText(
      'after',
      `
Serves the whole Admin API spec on 127.0.0.1 (auth rules, filters, pages of 25, the rate limit), and
prints the connection to export in another terminal, every organization, and a config to poll them with.
Ctrl-C stops it.

Worlds:
  demo               ${WORLD_PRESETS.demo.summary}
  canteen-afternoon  ${WORLD_PRESETS['canteen-afternoon'].summary}
  shared-token       ${WORLD_PRESETS['shared-token'].summary}

Examples:
  $ meal-notifier simulate
  $ meal-notifier simulate --world canteen-afternoon
  $ meal-notifier simulate --port 4011 --seed 7 --speed 60
  $ meal-notifier simulate --receivers --show full
  $ meal-notifier simulate --closing-in 60
  $ meal-notifier simulate --error-rate 0.2 --latency 300 --requests-per-minute 10`,
    )
    .action(async (options: SimulateOptions) => {
      const stdout = deps.stdout ?? stdoutSink();
      const world = WORLD_PRESETS[choiceFlag('--world', options.world, WORLD_NAMES)];
      const seed = integerFlag('--seed', options.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      const speed =
        options.speed === undefined ? world.cliSpeed : numberFlag('--speed', options.speed, 0, 10_000);
      const show = choiceFlag('--show', options.show ?? 'summary', SHOW_CHOICES);
      if (options.show !== undefined && !options.receivers) {
        throw new CliUsageError('--show says what --receivers prints of each message; add --receivers');
      }
      const simulator = await startSimulator({
        world: world.name,
        port: integerFlag('--port', options.port, 0, 65535),
        seed,
        initialOrders:
          options.orders === undefined ? undefined : integerFlag('--orders', options.orders, 0, 100_000),
        requestsPerMinute: integerFlag('--requests-per-minute', options.requestsPerMinute, 1, 1_000_000),
        pickupFormat: choiceFlag('--pickup-format', options.pickupFormat, PICKUP_FORMATS),
        ordersShape: options.bare ? 'bare' : 'envelope',
        timeZone: timeZoneFlag(options.timeZone),
        scenario: speed === 0 ? false : { speed },
        closingInSeconds:
          options.closingIn === undefined
            ? undefined
            : integerFlag('--closing-in', options.closingIn, 0, 86_400),
        faults: {
          errorRate: numberFlag('--error-rate', options.errorRate, 0, 1),
          latencyMs: numberFlag('--latency', options.latency, 0, 600_000),
        },
      }).catch((error: unknown) => {
        if ((error as { code?: unknown }).code === 'EADDRINUSE') {
          throw new CliUsageError(`port ${options.port} is already in use; choose another with --port`);
        }
        throw error;
      });
      const inboxes = options.receivers
        ? await startInboxes(stdout, show, integerFlag('--port', options.port, 0, 65535))
        : undefined;
      // Listen for the stop signal before announcing the address: a caller may signal as soon as it reads it.
      const stop = stopped(deps.stopSignal);
      deps.onStarted?.(simulator);
      const connections = organizationConnections(simulator);
      stdout.text(
        formatSimulatorBanner({
          seed,
          baseUrl: simulator.baseUrl,
          world,
          speed,
          connections,
          config: notifierConfigFor(simulator, connections, {
            receivers: inboxes !== undefined,
            ...(inboxes
              ? { slackApp: { apiUrl: inboxes.slackApi.apiUrl, channel: inboxes.slackApi.channel } }
              : {}),
          }),
          establishments: simulator.world.establishments(),
          timeZone: simulator.world.timeZone,
          exports: inboxes
            ? [
                [RECEIVER_ENV.slack, inboxes.slack.webhookUrl],
                [RECEIVER_ENV.slackBotToken, inboxes.slackApi.token],
                [RECEIVER_ENV.smtp, inboxes.mail.url],
              ]
            : [],
          receivers: inboxes ? slackApiLines(inboxes.slackApi) : [],
        }),
      );
      await stop;
      inboxes?.slackPrinter.stop();
      await Promise.all([inboxes?.slack.close(), inboxes?.slackApi.close(), inboxes?.mail.close()]);
      await simulator.close();
      stdout.line('Simulator stopped.');
    });
}

interface Inboxes {
  slack: SlackInbox;
  slackApi: SlackWebApiStandIn;
  slackPrinter: SlackChannelPrinter;
  mail: MailInbox;
}

/**
 * Local stand-ins for Slack (an incoming webhook, and the Web API a Slack app calls) and a mail server,
 * so delivery can be tried with no account anywhere. The SMTP server's library loads only here, as a
 * simulator without receivers has no use for it. The Web API stand-in listens on the port after the
 * simulator's (4011 beside the default 4010), so the printed config is the same from run to run; on a
 * free one when that is taken.
 */
async function startInboxes(stdout: OutputSink, show: Show, simulatorPort: number): Promise<Inboxes> {
  const { startMailInbox } = await import('../../simulator/inbox/mailInbox.js');
  const slack = await startSlackInbox((message) => stdout.text(formatReceivedSlackMessage(message, show)));
  const slackApi = await startSlackWebApiBeside(simulatorPort);
  const slackPrinter = printSlackChannel(slackApi.workspace, stdout, show);
  const mail = await startMailInbox((received) => stdout.text(formatReceivedMail(received, show)));
  return { slack, slackApi, slackPrinter, mail };
}

/** Where the Web API stand-in listens, and how to bring about by hand what a person does in Slack. */
function slackApiLines(slackApi: SlackWebApiStandIn): string[] {
  const channel = slackApi.workspace.channel(slackApi.channel);
  return [
    `Slack Web API stand-in (a Slack app's board, subscriber kitchen-board): apiUrl ${slackApi.apiUrl}, channel #${channel?.name ?? ''} ${slackApi.channel}, bot token in KITCHEN_SLACK_BOT_TOKEN`,
    `  to try failures: curl -X POST ${slackApi.controlUrl}/rate-limit -d '{"retryAfterSeconds":30}'   (also delete {"ts":…}, revoke, kick, invite, archive; GET channels)`,
  ];
}

async function startSlackWebApiBeside(simulatorPort: number): Promise<SlackWebApiStandIn> {
  const next = simulatorPort > 0 && simulatorPort < 65535 ? simulatorPort + 1 : 0;
  try {
    return await startSlackWebApi({ port: next });
  } catch (error) {
    if (next === 0 || (error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    return startSlackWebApi({ port: 0 });
  }
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal) {
    return new Promise((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
