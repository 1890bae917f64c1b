// What `simulate` prints once the simulator listens: the connection as shell lines to paste, every
// organization with the token that reads it, and a config that polls them all as the world intends.
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
}

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
    `Organizations (${banner.connections.length}); prefix a command with a line to read that one:`,
    ...banner.connections.map(
      (connection) =>
        `  ${connection.name.padEnd(width)}  MEAL_API_ORGANIZATION=${connection.id} MEAL_API_TOKEN=${connection.token}`,
    ),
    'Then, in another terminal: npx meal-notifier orders',
    'To poll them all, save this as notifier.json and run: npx meal-notifier poll --config notifier.json',
    formatConfig(banner.config),
    '',
  ].join('\n');
}

/** Pretty JSON, but one line per organization, so twenty of them still fit on a screen. */
function formatConfig(config: ConfigInput): string {
  const { organizations, ...rest } = config;
  const entries = [
    ...Object.entries(rest).map(([key, value]) => `  ${JSON.stringify(key)}: ${oneLine(value)}`),
    `  "organizations": [\n${organizations.map((organization) => `    ${oneLine(organization)}`).join(',\n')}\n  ]`,
  ];
  return `{\n${entries.join(',\n')}\n}`;
}

function oneLine(value: unknown): string {
  // JSON escapes newlines inside strings, so every newline left is layout.
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
}
