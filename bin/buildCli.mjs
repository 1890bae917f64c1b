#!/usr/bin/env node
// Compiles the TypeScript CLI (cli/main.ts and what it imports from shared/ and simulator/, with the
// packages it uses) into ES modules, dist/cli.js and its chunks in dist/chunks/, with the local esbuild,
// so the CLI starts from plain JavaScript (no tsx). Bundling the packages halves a command's start-up
// (about 0.3 s of CPU instead of 0.5 s): Node resolves and reads a few files instead of some thousand.
// What a command imports with `import()` (the AWS SDK clients for --stack, prom-client for
// --metrics-port, nodemailer's ping, the SMTP server for --receivers) becomes a chunk that only that
// command loads. better-sqlite3 stays an import: its native addon is built for the machine at install.
// Runs from `prepare` (npm install, npm ci), from `npm start`, and once before the e2e tests.
// A package the CLI's own code imports that is not a runtime dependency fails the build, since a
// production install would not have it to build from.
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
  target: 'node22.12',
  external: ['better-sqlite3'],
  // Packages' ES module builds where they have one (jsonc-parser's UMD build requires files at run time).
  mainFields: ['module', 'main'],
  // CommonJS packages inside an ES module still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as cliCreateRequire } from 'node:module'; const require = cliCreateRequire(import.meta.url);",
  },
  // Error classes name themselves with `new.target.name`; bundling may rename clashing identifiers.
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
});

const notRuntime = new Set();
for (const [file, input] of Object.entries(result.metafile.inputs)) {
  if (file.includes('node_modules/')) continue;
  for (const { path, original } of input.imports) {
    const specifier = original ?? path;
    if (/^[./<]/.test(specifier) || specifier.startsWith('node:') || builtins.has(specifier)) continue;
    const name = specifier.startsWith('@')
      ? specifier.split('/').slice(0, 2).join('/')
      : specifier.split('/')[0];
    if (!runtimeDependencies.has(name)) notRuntime.add(name);
  }
}
if (notRuntime.size > 0) {
  console.error(
    `buildCli: the CLI imports ${[...notRuntime].join(', ')}, not in package.json "dependencies"; move it there or stop importing it`,
  );
  process.exit(1);
}
