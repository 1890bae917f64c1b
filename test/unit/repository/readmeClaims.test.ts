// What the README and the docs promise about the code, checked against the code: a claim that drifts from
// what the product does fails here rather than surprising a reader.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SLACK_MESSAGE_INTERVAL_MS } from '../../../shared/delivery/slack/slackPacer.js';
import { StateFileTooNewError } from '../../../shared/store/errors.js';
import { SCHEMA_VERSION } from '../../../shared/store/sqlite/sqliteSchema.js';

function read(path: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');
}

/** The page's section under `heading`, up to the next heading of the same level or above. */
function section(path: string, heading: string): string {
  const page = read(path);
  const start = page.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${path} has no "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const rest = page.slice(start + heading.length + 2);
  const next = new RegExp(`^#{1,${level}} `, 'm').exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

describe('the README and the docs', () => {
  it("has the walkthrough's Slack messages go out at the pacer's pace, not all within a second", () => {
    const walkthrough = section(
      'README.md',
      '### Slack-style and e-mail notifications, with no accounts',
    ).replace(/\s+/g, ' ');
    expect(SLACK_MESSAGE_INTERVAL_MS).toBe(1_000);
    expect(walkthrough).toContain('the Slack messages one a second');
    expect(walkthrough).not.toMatch(/delivers them within a second/);
  });

  it("gives, under the operating guide's Upgrading, this release's schema version and the refusal of a newer file word for word", () => {
    const upgrading = section('docs/operating.md', '## Upgrading');
    expect(upgrading.replace(/\s+/g, ' ')).toContain(
      `\`PRAGMA user_version\`; ${SCHEMA_VERSION} in this release`,
    );
    const refusal = new StateFileTooNewError(
      '/var/lib/meal-notifier/state.db',
      SCHEMA_VERSION + 1,
      SCHEMA_VERSION,
    );
    expect(upgrading).toContain(`\n  meal-notifier: ${refusal.message}\n`);
    expect(refusal.exitCode).toBe(2);
    expect(upgrading.replace(/\s+/g, ' ')).toContain('opens nothing and exits 2');
  });
});
