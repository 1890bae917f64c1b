// Every relative link in README.md and docs/*.md resolves: the file or folder it names exists, and an
// #anchor into a markdown file names one of its headings, slugged as GitHub slugs them. Moving a section
// between pages, or renaming a heading, fails here rather than leaving a reader at a dead link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The page's lines outside fenced code blocks, where markdown is markdown. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/**
 * GitHub's anchor for a heading: its text without markup, lower-cased, with every character but letters,
 * digits, connector punctuation (the underscore), spaces and hyphens dropped, and spaces made hyphens.
 */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings; a repeated heading gets -1, -2, … as on GitHub. */
function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(readFileSync(join(ROOT, path), 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The link targets of a page's prose, inline code left out. */
function linksOf(path: string): string[] {
  const prose = proseLines(readFileSync(join(ROOT, path), 'utf8'))
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** What is wrong with a relative link from `page`, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#');
  const resolved = file === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(file)));
  if (resolved.startsWith('..') || !existsSync(join(ROOT, resolved))) return `${target}: no file ${resolved}`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  return anchorsOf(resolved).has(anchor) ? undefined : `${target}: ${resolved} has no heading #${anchor}`;
}

describe('the documentation', () => {
  it('slugs headings as GitHub does', () => {
    expect(githubSlug('See it work: `npm start`')).toBe('see-it-work-npm-start');
    expect(githubSlug('Node.js versions')).toBe('nodejs-versions');
    expect(githubSlug('Prep summaries (`establishment.prep_summary`)')).toBe(
      'prep-summaries-establishmentprep_summary',
    );
    expect(githubSlug('Operate it: status, deliveries, replay, republish')).toBe(
      'operate-it-status-deliveries-replay-republish',
    );
    expect(githubSlug('Café Bar — 🍽 closing')).toBe('café-bar---closing');
  });

  it('has an index page that links every page of docs/', () => {
    const indexed = new Set(linksOf('docs/README.md').map((target) => target.split('#')[0]));
    const pages = PAGES.filter((page) => page.startsWith('docs/') && page !== 'docs/README.md');
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(indexed, page).toContain(page.slice('docs/'.length));
  });

  it.each(PAGES)('%s: every relative link and anchor resolves', (page) => {
    const relativeLinks = linksOf(page).filter((target) => !isExternal(target));
    expect(relativeLinks.length, `${page} links nowhere`).toBeGreaterThan(0);
    const broken = relativeLinks.map((target) => brokenLink(page, target)).filter(Boolean);
    expect(broken).toEqual([]);
  });

  it('finds a broken link and a broken anchor', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toMatch(/no file docs\/no-such-page\.md/);
    expect(brokenLink('README.md', 'docs/aws.md#no-such-heading')).toMatch(/has no heading #no-such-heading/);
    expect(brokenLink('docs/aws.md', '../README.md#two-commands')).toBeUndefined();
  });
});
