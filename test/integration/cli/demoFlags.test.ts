// `meal-notifier demo` refuses a bad --seed or --interval with the same one-line usage error as every other
// command's integer flag, before the simulator, the receiver or the runner starts.
import { describe, expect, it } from 'vitest';
import { demoCommand } from '../../../cli/commands/demo.js';
import { CliUsageError } from '../../../cli/errors.js';

describe('meal-notifier demo, flags', () => {
  it.each([
    [['--interval', '1'], '--interval "1" must be an integer from 2 to 60'],
    [['--interval', 'soon'], '--interval "soon" must be an integer from 2 to 60'],
    [['--seed', '1.5'], '--seed "1.5" must be an integer from'],
  ])('refuses %j with a one-line usage error', async (args, message) => {
    const command = demoCommand();
    command.exitOverride();
    const attempt = command.parseAsync(args, { from: 'user' });
    await expect(attempt).rejects.toBeInstanceOf(CliUsageError);
    await expect(attempt).rejects.toThrow(message);
    await attempt.catch((error: Error) => expect(error.message).not.toContain('\n'));
  });
});
