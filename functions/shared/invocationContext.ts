// Every log line of an invocation names it: Powertools' Logger takes the Lambda context's request id
// (`function_request_id`), the function's name, version, ARN and memory, and whether the start was cold,
// into each line that follows (Logger.addContext, what its injectLambdaContext middleware and decorator call;
// our handlers are plain functions). Each handler calls it first, before it logs anything.
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** Lambda hands a handler the whole context; a test may hand it only the fields the handler reads. */
export type InvocationContext = Partial<Context>;

export function addInvocationContext(logger: Logger, context: InvocationContext | undefined): void {
  // No context, no invocation to name: an in-process call that is no Lambda invocation.
  if (context === undefined) return;
  // The Logger reads only the context's fields, each optional in what it writes.
  logger.addContext(context as Context);
}
