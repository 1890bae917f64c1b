#!/usr/bin/env node
// Compiles the TypeScript CLI (cli/main.ts and what it imports from shared/ and simulator/) into ES
// modules, dist/cli.js and its chunks in dist/chunks/, with the local esbuild, so the CLI starts from plain
// JavaScript (no tsx). What a command imports with `import()` (the AWS SDK clients for --stack, prom-client
// for --metrics-port, nodemailer for --ping, the SMTP server for --receivers) becomes a chunk that only
// that command loads, so the rest start without those packages.
// Runs from `prepare` (npm install, npm ci), from `npm start`, and once before the e2e tests.
// Packages stay imports (they are installed runtime dependencies); a package the CLI imports that is not
// a runtime dependency fails the build, since a production install would not have it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUTDIR = fileURLToPath(new URL('../dist', import.meta.url));
const OUTFILE = `${OUTDIR}/cli.js`;

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const runtimeDependencies = new Set(Object.keys(packageJson.dependencies ?? {}));
const builtins = new Set(builtinModules);

// esbuild is a development dependency: an install without them (`npm ci --omit=dev`) keeps a bundle it
// already has, and otherwise says what to do.
let build;
try {
  ({ build } = await import('esbuild'));
} catch {
  if (existsSync(OUTFILE)) process.exit(0);
  console.error(
    'buildCli: esbuild is not installed, so dist/cli.js cannot be built; run `npm ci` with dev dependencies',
  );
  process.exit(1);
}

// Chunks are named by their content's hash: the ones of an older build would pile up.
rmSync(`${OUTDIR}/chunks`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { cli: 'cli/main.ts' },
  outdir: OUTDIR,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.18',
  packages: 'external',
  // Error classes name themselves with `new.target.name`; bundling may rename clashing identifiers.
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
});

const notRuntime = new Set();
for (const input of Object.values(result.metafile.inputs)) {
  for (const { path, external } of input.imports) {
    if (!external || path.startsWith('<') || path.startsWith('node:') || builtins.has(path)) continue;
    const name = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0];
    if (!runtimeDependencies.has(name)) notRuntime.add(name);
  }
}
if (notRuntime.size > 0) {
  console.error(
    `buildCli: the CLI imports ${[...notRuntime].join(', ')}, not in package.json "dependencies"; move it there or stop importing it`,
  );
  process.exit(1);
}
