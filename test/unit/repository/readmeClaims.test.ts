// What the README promises about the code, checked against the code: a claim that drifts from what the
// product does fails here rather than surprising a reader.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SLACK_MESSAGE_INTERVAL_MS } from '../../../shared/delivery/slack/slackPacer.js';
import { StateFileTooNewError } from '../../../shared/store/errors.js';
import { SCHEMA_VERSION } from '../../../shared/store/sqlite/sqliteSchema.js';

const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

/** The README's section under `heading`, up to the next heading of the same level or above. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const rest = README.slice(start + heading.length + 2);
  const next = new RegExp(`^#{1,${level}} `, 'm').exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

describe('the README', () => {
  it("has the walkthrough's Slack messages go out at the pacer's pace, not all within a second", () => {
    const walkthrough = section('### Slack-style and e-mail notifications, with no accounts').replace(
      /\s+/g,
      ' ',
    );
    expect(SLACK_MESSAGE_INTERVAL_MS).toBe(1_000);
    expect(walkthrough).toContain('the Slack messages one a second');
    expect(walkthrough).not.toMatch(/delivers them within a second/);
  });

  it("gives, under Upgrading, this release's schema version and the refusal of a newer file word for word", () => {
    const upgrading = section('## Upgrading');
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
