// `npm run bench`: runs every benchmark and prints, as its last line, one JSON object of figures.
import { benchApiClient } from './apiClient.js';

const figures: Record<string, number> = {};
for (const [name, bench] of [['api client', benchApiClient]] as const) {
  process.stderr.write(`bench: ${name}…\n`);
  Object.assign(figures, await bench());
}
process.stdout.write(`${JSON.stringify(figures)}\n`);
