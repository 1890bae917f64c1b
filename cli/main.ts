// Entry point of the `meal-notifier` CLI.
import { reportFailure } from './errors.js';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportFailure(error, process.stderr);
}
