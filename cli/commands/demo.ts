// `meal-notifier demo` (what `npm start` runs): the whole product on one machine, with nothing to set up.
import { Command } from 'commander';
import { runDemo } from '../demo/runDemo.js';
import { integerFlag } from '../flags.js';
import { stdoutSink } from '../output/outputSink.js';
import { stopOnSignals } from '../runtime/stopOnSignals.js';

interface DemoCommandOptions {
  seed: string;
  /** 3 by default: the schema's floor is 2 s, and 3 leaves room for the cycle itself. */
  interval: string;
}

export function demoCommand(): Command {
  return new Command('demo')
    .description('Run the zero-config demo: simulator, runner and a signature-verifying webhook receiver')
    .option('--seed <n>', 'seed of the simulated world; the same seed tells the same story', '42')
    .option('--interval <seconds>', 'seconds between poll cycles (2 to 60)', '3')
    .addHelpText(
      'after',
      `
Starts, in this process and on 127.0.0.1 only: the Admin API simulator with a school whose orders arrive
every few seconds and are completed or canceled; a webhook receiver that verifies each
delivery's Standard Webhooks signature; and the runner, polling with its state in a temporary directory.
Each event prints when it is detected and when it is delivered; Ctrl-C prints a summary, removes the
temporary directory and exits 0.

Examples:
  $ npm start
  $ meal-notifier demo --seed 7 --interval 2`,
    )
    .action(async (options: DemoCommandOptions) => {
      const seed = integerFlag('--seed', options.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      const intervalSeconds = integerFlag('--interval', options.interval, 2, 60);
      const signals = stopOnSignals(() => {});
      try {
        await runDemo({
          seed,
          intervalSeconds,
          output: stdoutSink(),
          stop: signals.signal,
        });
      } finally {
        signals.dispose();
      }
    });
}
