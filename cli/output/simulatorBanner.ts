// What `simulate` prints once the simulator listens: the connection as shell lines to paste, every
// organization with the token that reads it, and a config that polls them all as the world intends.
import type { Establishment } from '../../shared/api/schemas.js';
import type { ConfigInput } from '../../shared/config/configSchema.js';
import type { OrganizationConnection } from '../../simulator/notifierConfig.js';
import type { WorldPreset } from '../../simulator/worldPresets.js';

export interface SimulatorBanner {
  seed: number;
  baseUrl: string;
  world: Pick<WorldPreset, 'name' | 'summary'>;
  /** 0 when the world is frozen. */
  speed: number;
  connections: readonly OrganizationConnection[];
  config: ConfigInput;
  /** Further variables to export, e.g. the local receivers' URLs. */
  exports?: ReadonlyArray<readonly [string, string]>;
  /** Lines on the local receivers, after the exports, e.g. where the Slack Web API stand-in listens. */
  receivers?: readonly string[];
  /** The first organization's establishments, whose hours the scenario follows. */
  establishments?: readonly Establishment[];
  timeZone?: string;
}

const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function formatSimulatorBanner(banner: SimulatorBanner): string {
  const [first] = banner.connections;
  // Tokens beyond the first are exported too, under the names the config reads them from.
  const tokens = new Map(banner.connections.map((connection) => [connection.tokenEnv, connection.token]));
  tokens.delete('MEAL_API_TOKEN');
  const width = Math.max(...banner.connections.map((connection) => connection.name.length));
  return [
    `Admin API simulator (seed ${banner.seed}) listening on ${banner.baseUrl}`,
    `World ${banner.world.name}: ${banner.world.summary} (${banner.speed === 0 ? 'frozen' : `speed ${banner.speed}`}).`,
    `export MEAL_API_BASE_URL=${banner.baseUrl}`,
    ...(first ? [`export MEAL_API_ORGANIZATION=${first.id}`, `export MEAL_API_TOKEN=${first.token}`] : []),
    ...[...tokens].map(([name, token]) => `export ${name}=${token}`),
    ...(banner.exports ?? []).map(([name, value]) => `export ${name}=${value}`),
    ...(banner.receivers ?? []),
    `Organizations (${banner.connections.length}); prefix a command with a line to read that one:`,
    ...banner.connections.map(
      (connection) =>
        `  ${connection.name.padEnd(width)}  MEAL_API_ORGANIZATION=${connection.id} MEAL_API_TOKEN=${connection.token}`,
    ),
    ...formatEstablishments(banner.establishments ?? [], banner.timeZone),
    'Then, in another terminal: npx meal-notifier orders',
    'To poll them all, save this as notifier.json and run: npx meal-notifier poll --config notifier.json',
    formatConfig(banner.config),
    '',
  ].join('\n');
}

/** `  Main Canteen  closes 10:30:00, Mon–Fri`, one line per establishment. */
function formatEstablishments(establishments: readonly Establishment[], timeZone = ''): string[] {
  if (establishments.length === 0) return [];
  const width = Math.max(...establishments.map((establishment) => establishment.name.length));
  return [
    `Establishments (orders for today close at their closing time${timeZone ? `, ${timeZone}` : ''}; closed days are quiet):`,
    ...establishments.map(
      (establishment) =>
        `  ${establishment.name.padEnd(width)}  closes ${establishment.order_closing_time}, ${workingDays(establishment.working_days)}`,
    ),
  ];
}

/** `Mon–Fri`, `every day`, `Mon, Wed–Fri`, `no day`. */
export function workingDays(days: readonly number[]): string {
  const sorted = [...new Set(days)].filter((day) => day >= 1 && day <= 7).sort((a, b) => a - b);
  if (sorted.length === 0) return 'no day';
  if (sorted.length === 7) return 'every day';
  const runs: number[][] = [];
  for (const day of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === day - 1) run.push(day);
    else runs.push([day]);
  }
  const name = (day: number | undefined) => WEEKDAY_NAMES[(day ?? 1) - 1];
  return runs
    .map((run) => (run.length > 2 ? `${name(run[0])}–${name(run.at(-1))}` : run.map(name).join(', ')))
    .join(', ');
}

/** Pretty JSON, but one line per organization or subscriber, so twenty of them still fit on a screen. */
function formatConfig(config: ConfigInput): string {
  const entries = Object.entries(config).map(([key, value]) =>
    Array.isArray(value)
      ? `  ${JSON.stringify(key)}: [\n${value.map((item) => `    ${oneLine(item)}`).join(',\n')}\n  ]`
      : `  ${JSON.stringify(key)}: ${oneLine(value)}`,
  );
  return `{\n${entries.join(',\n')}\n}`;
}

function oneLine(value: unknown): string {
  // JSON escapes newlines inside strings, so every newline left is layout.
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
}
