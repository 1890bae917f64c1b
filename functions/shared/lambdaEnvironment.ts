// Parses a Lambda function's environment at import, so a misconfigured function fails on its first cold
// start with a message naming every missing or bad variable, not on some later request.
import type * as z from 'zod';
import { FixByHandError } from '../../shared/errors/fixByHandError.js';

/**
 * A function's environment schema shape: a key for each variable the stack sets
 * (shared/contracts/functionEnvironments.ts), and for `Extra`, which it may (NOTIFIER_CONFIG).
 */
export type EnvironmentShape<Variables, Extra extends string = never> = Record<
  keyof Variables | Extra,
  z.ZodType
>;

/** A deployment mistake: every cold start fails the same way until the function is redeployed. */
export class LambdaEnvironmentError extends FixByHandError {
  constructor(functionName: string, problems: string[]) {
    super(`${functionName} environment: ${problems.join('; ')}`);
  }
}

export function parseLambdaEnvironment<T extends z.ZodType>(
  functionName: string,
  schema: T,
  env: NodeJS.ProcessEnv,
): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new LambdaEnvironmentError(
    functionName,
    parsed.error.issues.map((issue) => {
      const variable = issue.path.join('.');
      return env[variable] === undefined ? `${variable} is not set` : `${variable}: ${issue.message}`;
    }),
  );
}
