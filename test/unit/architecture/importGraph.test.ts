// The import graph of the product code (shared/, functions/, cli/, infra/, simulator/), read with
// es-module-lexer, Vite's import scanner (static imports, `import type`, `export … from`, dynamic `import()`
// with a literal specifier; TypeScript 7 has no JavaScript API to pre-parse with): it has no
// cycles, and it keeps the layers ARCHITECTURE.md draws. `npm run lint` refuses a wrong-way import as it is
// written (biome.json, noRestrictedImports per folder); this test also sees what a module reaches through
// others, and catches a relative path that slips past the lint's patterns.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, parse } from 'es-module-lexer';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LAYERS = ['shared', 'functions', 'cli', 'infra', 'simulator'];

/** Module (path from the repository root, or `pkg:<specifier>` for a package) → what it imports. */
type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function readImportGraph(): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of LAYERS.flatMap(sourceFiles)) {
    const [imports] = parse(readFileSync(join(ROOT, file), 'utf8'), file);
    graph.set(
      file,
      imports.flatMap(({ n: fileName }) =>
        fileName === undefined
          ? []
          : fileName.startsWith('.')
            ? relative(ROOT, resolve(ROOT, dirname(file), fileName.replace(/\.js$/, '.ts'))).replaceAll(
                '\\',
                '/',
              )
            : `pkg:${fileName}`,
      ),
    );
  }
  return graph;
}

/** Every cycle (strongly connected set of more than one module, or a module importing itself), sorted. */
function findCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module) ?? 0);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(module, Math.min(low.get(module) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const members: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      members.push(member);
    } while (member !== module);
    if (members.length > 1 || graph.get(module)?.includes(module)) cycles.push(members.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return cycles;
}

/** Everything `roots` import, directly or through other modules of the graph (packages included). */
function reachableFrom(graph: ImportGraph, roots: readonly string[]): Set<string> {
  const reached = new Set<string>();
  const pending = [...roots];
  for (let module = pending.pop(); module !== undefined; module = pending.pop()) {
    for (const next of graph.get(module) ?? []) {
      if (reached.has(next)) continue;
      reached.add(next);
      pending.push(next);
    }
  }
  return reached;
}

interface LayerRule {
  /** Modules under this folder… */
  from: string;
  /** …import nothing whose path starts with one of these… */
  forbidden: readonly string[];
  /** …but what this lets through. */
  except?: (target: string) => boolean;
}

/** The config's secret resolvers are adapters (Secrets Manager, the environment), not the config contract. */
const SECRET_RESOLVER = /^shared\/config\/secret\w*Resolver\.ts$/;

const LAYER_RULES: readonly LayerRule[] = [
  { from: 'shared/', forbidden: ['functions/', 'cli/', 'infra/', 'simulator/', 'test/', 'bench/'] },
  { from: 'functions/', forbidden: ['cli/', 'infra/', 'simulator/', 'test/', 'bench/'] },
  { from: 'cli/', forbidden: ['functions/', 'infra/', 'test/', 'bench/'] },
  // infra/ imports only contracts: shared/contracts/, the config it is synthesized from, and the error root
  // its own errors extend.
  {
    from: 'infra/',
    forbidden: ['functions/', 'cli/', 'simulator/', 'test/', 'bench/', 'shared/'],
    except: (target) =>
      target.startsWith('shared/contracts/') ||
      target.startsWith('shared/errors/') ||
      (target.startsWith('shared/config/') && !SECRET_RESOLVER.test(target)),
  },
  { from: 'simulator/', forbidden: ['functions/', 'cli/', 'infra/', 'test/', 'bench/'] },
];

function layerViolations(graph: ImportGraph, rules: readonly LayerRule[]): string[] {
  return [...graph].flatMap(([module, imports]) =>
    rules
      .filter(({ from }) => module.startsWith(from))
      .flatMap(({ forbidden, except = () => false }) =>
        imports
          .filter((target) => forbidden.some((prefix) => target.startsWith(prefix)) && !except(target))
          .map((target) => `${module} → ${target}`),
      ),
  );
}

/** Modules that do I/O, or hand it to whoever imports them. */
const IO_PACKAGE =
  /^pkg:((node:)?(fs|net|http|https|http2|child_process|dgram|dns|tls|worker_threads|cluster|readline|sqlite)(\/|$)|undici|@aws-sdk\/|@smithy\/|@aws-lambda-powertools\/|better-sqlite3$|nodemailer|smtp-server$|prom-client$|commander$)/;
/** Where the core keeps its adapters and what builds them (the API client defaults to fetch). */
// shared/http/httpErrors.ts holds only the transport's error classes, which shared/api/errors.ts maps.
const IO_MODULE =
  /^shared\/(http\/(?!httpErrors\.ts$)|(store|delivery|poll|operations|publish|config|contracts)\/)|^shared\/api\/adminApiClient\.ts$/;

await init;

describe('the import graph', () => {
  const graph = readImportGraph();

  it('finds every module a relative import names (data files, like package.json, aside)', () => {
    const dangling = [...graph].flatMap(([module, imports]) =>
      imports.filter((target) => target.endsWith('.ts') && !graph.has(target)).map((t) => `${module} → ${t}`),
    );
    expect(graph.size).toBeGreaterThan(300);
    expect(dangling).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('keeps the layers: shared/ imports no runtime, functions/ and cli/ not each other, infra/ only contracts', () => {
    expect(layerViolations(graph, LAYER_RULES)).toEqual([]);
  });

  it('keeps shared/detect and shared/events free of I/O, through every module they reach', () => {
    const roots = [...graph.keys()].filter((module) => /^shared\/(detect|events)\//.test(module));
    const reached = [...reachableFrom(graph, roots)];
    expect(roots.length).toBeGreaterThan(10);
    expect(reached.filter((module) => IO_PACKAGE.test(module) || IO_MODULE.test(module))).toEqual([]);
  });
});

// The checks above pass on the tree; these show they would see what they look for.
describe('the graph checks themselves', () => {
  it('find a cycle, however long, and a module that imports itself', () => {
    const graph: ImportGraph = new Map([
      ['shared/a.ts', ['shared/b.ts']],
      ['shared/b.ts', ['shared/c.ts', 'pkg:zod']],
      ['shared/c.ts', ['shared/a.ts']],
      ['shared/d.ts', ['shared/d.ts']],
      ['shared/e.ts', ['shared/a.ts']],
    ]);
    expect(findCycles(graph)).toEqual([['shared/a.ts', 'shared/b.ts', 'shared/c.ts'], ['shared/d.ts']]);
  });

  it('find a wrong-way import in each layer, and let contracts through to infra', () => {
    const graph: ImportGraph = new Map([
      ['shared/detect/x.ts', ['functions/poller/handler.ts']],
      ['functions/poller/x.ts', ['cli/main.ts', 'shared/contracts/bundledConfig.ts']],
      ['cli/aws/x.ts', ['functions/shared/lambdaEnvironment.ts']],
      [
        'infra/x.ts',
        [
          'shared/contracts/streamContract.ts',
          'shared/config/configSchema.ts',
          'shared/config/secretsManagerSecretResolver.ts',
          'shared/delivery/attemptDelivery.ts',
        ],
      ],
    ]);
    expect(layerViolations(graph, LAYER_RULES)).toEqual([
      'shared/detect/x.ts → functions/poller/handler.ts',
      'functions/poller/x.ts → cli/main.ts',
      'cli/aws/x.ts → functions/shared/lambdaEnvironment.ts',
      'infra/x.ts → shared/config/secretsManagerSecretResolver.ts',
      'infra/x.ts → shared/delivery/attemptDelivery.ts',
    ]);
  });

  it('see I/O reached through another module', () => {
    const graph: ImportGraph = new Map([
      ['shared/detect/x.ts', ['shared/api/schemas.ts']],
      ['shared/api/schemas.ts', ['pkg:zod', 'pkg:node:fs/promises']],
    ]);
    const reached = [...reachableFrom(graph, ['shared/detect/x.ts'])];
    expect(reached.filter((module) => IO_PACKAGE.test(module))).toEqual(['pkg:node:fs/promises']);
  });
});
