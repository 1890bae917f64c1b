// Entry point of the `meal-notifier` CLI.
import { reportFailure } from './errors.js';
import { stderrSink } from './output/outputSink.js';
import { buildProgram } from './program.js';
import { endQuietlyWhenOutputCloses } from './runtime/closedOutput.js';
import { listenToLauncher } from './runtime/launcherSignals.js';

endQuietlyWhenOutputCloses();
listenToLauncher();
const program = buildProgram();
try {
  await program.parseAsync(process.argv);
} catch (error) {
  // The command that ran parsed its own options; only the runner has --log-format.
  const json = program.commands.some((command) => command.opts().logFormat === 'json');
  process.exitCode = reportFailure(error, stderrSink(), json ? 'json' : 'human');
}
