// `npm run lint` refuses an import against the layers (biome.json: noRestrictedImports, per folder). Each
// case is a file written where its layer lives, in a scratch copy of the project's biome.json in the system's
// temporary folder (never in the tree, which other tests and the lint read), and linted at once by the
// project's own Biome; every wrong-way import must be refused, every right-way one let through.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIOME = join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
const RULE = 'lint/style/noRestrictedImports';

/** Path in the tree → its one line of code. */
const WRONG_WAY: Record<string, string> = {
  'shared/delivery/toFunctions.ts': "import { handler } from '../../functions/poller/handler.js';",
  'shared/toCli.ts': "import { main } from '../cli/main.js';",
  'shared/store/toInfra.ts':
    "import { MealOrderNotifierStack } from '../../infra/mealOrderNotifierStack.js';",
  'shared/api/toSimulator.ts': "import { startSimulator } from '../../simulator/startSimulator.js';",
  'shared/config/typeToFunctions.ts':
    "import type { PollerEnvironment } from '../../functions/poller/environment.js';",
  'shared/poll/reexportFromCli.ts': "export { main } from '../../cli/main.js';",
  'shared/detect/toFunctions.ts': "import { handler } from '../../functions/poller/handler.js';",
  'shared/detect/fs.ts': "import { readFileSync } from 'node:fs';",
  'shared/detect/fsPromises.ts': "import { readFile } from 'node:fs/promises';",
  'shared/detect/childProcess.ts': "import { spawn } from 'node:child_process';",
  'shared/detect/net.ts': "import { connect } from 'node:net';",
  'shared/events/http.ts': "import { request } from 'node:http';",
  'shared/events/https.ts': "import { request } from 'https';",
  'shared/events/undici.ts': "import { fetch } from 'undici';",
  'shared/events/awsSdk.ts': "import { SNSClient } from '@aws-sdk/client-sns';",
  'shared/events/sqlite.ts': "import Database from 'better-sqlite3';",
  'shared/detect/nodemailer.ts': "import { createTransport } from 'nodemailer';",
  'shared/detect/store.ts': "import type { StateStore } from '../store/stateStore.js';",
  'shared/detect/httpAdapter.ts': "import { createFetchHttpClient } from '../http/fetchHttpClient.js';",
  'shared/events/apiClient.ts': "import { AdminApiClient } from '../api/adminApiClient.js';",
  'functions/poller/toCli.ts': "import { main } from '../../cli/main.js';",
  'functions/shared/toInfra.ts': "import { NotifierFunction } from '../../infra/notifierFunction.js';",
  'cli/commands/toFunctions.ts': "import { handler } from '../../functions/poller/handler.js';",
  'cli/aws/dynamicToFunctions.ts':
    "export const load = () => import('../../functions/publisher/handler.js');",
  'cli/toInfra.ts': "import { MealOrderNotifierStack } from '../infra/mealOrderNotifierStack.js';",
  'infra/toFunctions.ts':
    "import { parseLambdaEnvironment } from '../functions/shared/lambdaEnvironment.js';",
  'infra/toCli.ts': "import { main } from '../cli/main.js';",
  'infra/toUseCase.ts': "import { attemptDelivery } from '../shared/delivery/attemptDelivery.js';",
  'infra/toStore.ts': "import { DynamoStateStore } from '../shared/store/dynamo/dynamoStateStore.js';",
  'infra/toSecretResolver.ts':
    "import { SecretsManagerSecretResolver } from '../shared/config/secretsManagerSecretResolver.js';",
  'simulator/toCli.ts': "import { main } from '../cli/main.js';",
};

const RIGHT_WAY: Record<string, string> = {
  'infra/contract.ts': "import { MAX_RECEIVE_COUNT } from '../shared/contracts/deliveryQueueContract.js';",
  'infra/config.ts': "import type { Config } from '../shared/config/configSchema.js';",
  'infra/cdk.ts': "import { Stack } from 'aws-cdk-lib';",
  'functions/poller/useCase.ts': "import { pollWhenDue } from '../../shared/poll/pollWhenDue.js';",
  'functions/poller/sibling.ts': "import { parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';",
  'cli/aws/useCase.ts': "import { publishEvents } from '../../shared/publish/publishEvents.js';",
  'cli/commands/simulator.ts': "import { startSimulator } from '../../simulator/startSimulator.js';",
  'shared/delivery/sqs/adapter.ts': "import { SQSClient } from '@aws-sdk/client-sqs';",
  'shared/delivery/contract.ts':
    "import { DEAD_LETTER_ATTRIBUTES } from '../contracts/deliveryQueueContract.js';",
  'shared/detect/api.ts': "import { OrderSchema } from '../api/schemas.js';",
  'shared/detect/events.ts': "import type { OrderEvent } from '../events/orderEvent.js';",
  'shared/events/crypto.ts': "import { createHash } from 'node:crypto';",
  'shared/events/zod.ts': "import * as z from 'zod';",
};

let scratch: string;
/** Path in the scratch tree → the messages Biome refused its imports with. */
let refusals: Map<string, string[]>;

interface BiomeReport {
  diagnostics: { category?: string; message?: string; location?: { path?: string } }[];
}

function lint(cwd: string): Promise<BiomeReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIOME, 'lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', '.'],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      // Biome exits 1 when it finds errors, which is what most cases are for: its report is on stdout.
      (error, stdout, stderr) => {
        const json = stdout.split('\n').find((line) => line.startsWith('{'));
        if (json === undefined) {
          reject(new Error(`biome lint printed no JSON report: ${error?.message ?? ''}\n${stderr}`));
          return;
        }
        resolve(JSON.parse(json) as BiomeReport);
      },
    );
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'import-rules-'));
  await copyFile(join(ROOT, 'biome.json'), join(scratch, 'biome.json'));
  for (const [path, line] of Object.entries({ ...WRONG_WAY, ...RIGHT_WAY })) {
    await mkdir(dirname(join(scratch, path)), { recursive: true });
    // Used, so that no other rule has anything to say about the import.
    await writeFile(join(scratch, path), `${line}\nexport type Used = unknown;\n`);
  }
  const report = await lint(scratch);
  refusals = new Map();
  for (const { category, message, location } of report.diagnostics) {
    if (category !== RULE || location?.path === undefined) continue;
    const path = location.path.replaceAll('\\', '/');
    refusals.set(path, [...(refusals.get(path) ?? []), message ?? '']);
  }
});

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe('npm run lint (biome.json noRestrictedImports)', () => {
  it.each(Object.entries(WRONG_WAY))('refuses %s: %s', (path) => {
    expect(refusals.get(path), `${path} was not refused`).toHaveLength(1);
  });

  it.each(Object.entries(RIGHT_WAY))('lets %s through: %s', (path) => {
    expect(refusals.get(path)).toBeUndefined();
  });

  it('says which layer was crossed and where the code belongs instead', () => {
    expect(refusals.get('shared/delivery/toFunctions.ts')?.[0]).toMatch(
      /^shared\/ is the core.*shared\/contracts\//,
    );
    expect(refusals.get('shared/detect/fs.ts')?.[0]).toMatch(/^shared\/detect and shared\/events do no I\/O/);
    expect(refusals.get('cli/commands/toFunctions.ts')?.[0]).toMatch(
      /^cli\/ imports nothing from functions\//,
    );
    expect(refusals.get('infra/toUseCase.ts')?.[0]).toMatch(/^infra\/ imports only contracts/);
  });
});
