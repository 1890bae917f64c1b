// The simulator's answers before they are written: a status, a JSON body in the spec's envelope, and
// any extra headers.

export interface ApiResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export function success(message: string, payload: Record<string, unknown>): ApiResponse {
  return { status: 200, body: { success: true, message, ...payload }, headers: {} };
}

/** A 200 whose body is not the envelope (the old bare form of the orders listing). */
export function bareSuccess(body: unknown): ApiResponse {
  return { status: 200, body, headers: {} };
}

export function failure(
  status: number,
  message: string,
  extra: { errors?: Record<string, string[]>; headers?: Record<string, string> } = {},
): ApiResponse {
  const body = extra.errors ? { success: false, message, errors: extra.errors } : { success: false, message };
  return { status, body, headers: { ...extra.headers } };
}
