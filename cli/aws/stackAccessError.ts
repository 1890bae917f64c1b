// Turns an AWS SDK failure on one of the stack's resources into a StackAccessError whose one line says
// what to check: the credentials, the identity's permissions, the region, or the endpoint override.
import { StackAccessError } from '../../shared/operations/errors.js';

const CREDENTIALS = new Set([
  'CredentialsProviderError',
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
]);
const ACCESS = new Set(['AccessDenied', 'AccessDeniedException', 'AuthorizationError']);
const NO_QUEUE = new Set(['AWS.SimpleQueueService.NonExistentQueue', 'QueueDoesNotExist']);
const NETWORK = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * @param resource what was being read or written, e.g. `the dead-letter queue of automation (https://…)`
 * @param endpointVariable the variable that overrides this service's endpoint, named when nothing answers
 */
export function stackAccessError(
  resource: string,
  error: unknown,
  endpointVariable: string,
): StackAccessError {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  let hint: string | undefined;
  if (CREDENTIALS.has(name) || /credential/i.test(message)) {
    hint = 'check your AWS credentials (AWS_PROFILE, aws sso login, or AWS_ACCESS_KEY_ID)';
  } else if (ACCESS.has(name)) {
    hint =
      'your AWS identity is not allowed to; see docs/aws.md, "Operate it", for the permissions operators need';
  } else if (NO_QUEUE.has(name) || name === 'ResourceNotFoundException') {
    hint = 'it does not exist: check --stack and --region, or deploy the stack again';
  } else if (/region is missing/i.test(message)) {
    hint = 'no AWS region: pass --region or set AWS_REGION';
  } else if (
    (typeof code === 'string' && NETWORK.has(code)) ||
    NETWORK.has(name) ||
    /ECONNREFUSED|ENOTFOUND/.test(message)
  ) {
    hint = `nothing answered: check your network, or ${endpointVariable} if you set it`;
  }
  return new StackAccessError(resource, `${name}: ${message}${hint ? `; ${hint}` : ''}`, { cause: error });
}
