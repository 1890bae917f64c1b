// GET /products: the organization's products, with class prices and class restrictions; the spec gives
// no shape, so this one is the simulator's own.
import { type ApiResponse, success } from '../apiResponse.js';
import type { World } from '../world.js';

export function listProducts(world: World): ApiResponse {
  return success('Products retrieved successfully.', { data: world.products() });
}
