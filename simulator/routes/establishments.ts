// GET /establishments: every establishment of the organization, full records, in the envelope without
// pagination keys, as in the spec's sample.
import { type ApiResponse, success } from '../apiResponse.js';
import type { World } from '../world.js';

export function listEstablishments(world: World): ApiResponse {
  return success('Establishments retrieved successfully.', { data: world.establishments() });
}
