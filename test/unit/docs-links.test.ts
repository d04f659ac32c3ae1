import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link in the repository's Markdown resolves: the file (or folder) exists, and an
 * `#anchor` into a Markdown file names one of its headings (docs/testing.md: the unit tier).
 */
const ROOT = new URL('../..', import.meta.url).pathname;

/** A link found in a Markdown file: its target as written and the line it is on. */
interface Link {
  target: string;
  line: number;
}

/** Removes fenced code blocks and inline code, keeping line numbers (links in code are examples, not links). */
function withoutCode(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      if (marker !== undefined) {
        fence = marker;
        return '';
      }
      return line.replace(/(`+)[^`]*?\1/g, '');
    })
    .join('\n');
}

/** Inline links and images `[text](target "title")`, reference definitions `[x]: target`, and `<img src>`/`<a href>`. */
function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, index) => {
      const line = index + 1;
      for (const m of text.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+["'(][^)]*)?\)/g)) {
        links.push({ target: (m[1] ?? '').replace(/^<|>$/g, ''), line });
      }
      const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(text);
      if (definition?.[1]) links.push({ target: definition[1].replace(/^<|>$/g, ''), line });
      for (const m of text.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/gi)) links.push({ target: m[1] ?? '', line });
    });
  return links;
}

/** GitHub's heading anchor: lower-case, punctuation dropped (except '-' and '_'), each space a '-'. */
function slug(heading: string): string {
  return heading
    .trim()
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading keeps its text
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown document's headings; a repeated heading gets `-1`, `-2`, … as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Fenced code blocks only (a heading may contain inline code, which counts for its anchor). */
function withoutCodeBlocks(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      if (marker !== undefined) fence = marker;
      return marker !== undefined ? '' : line;
    })
    .join('\n');
}

/** What a file system looks like to the checker: the text of a Markdown file, or whether a path exists. */
interface Files {
  exists(path: string): boolean;
  read(path: string): string;
}

/** Every broken relative link of the given Markdown files (repository-relative paths), one sentence each. */
function brokenLinks(markdownFiles: readonly string[], files: Files): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles) {
    for (const { target, line } of linksOf(files.read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:, …: not ours to check
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = (pathPart === '' ? file : normalize(pathPart.startsWith('/') ? pathPart.slice(1) : join(dirname(file), pathPart))).replace(/(.)\/$/, '$1');
      const where = `${file}:${line}: ${target}`;
      if (resolved.startsWith('..')) {
        broken.push(`${where}: points outside the repository`);
        continue;
      }
      if (!files.exists(resolved)) {
        broken.push(`${where}: ${resolved} does not exist`);
        continue;
      }
      if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md') && !anchorsOf(files.read(resolved)).has(anchor.toLowerCase())) {
        broken.push(`${where}: ${resolved} has no heading with the anchor #${anchor}`);
      }
    }
  }
  return broken;
}

/** Every `docs/….md` or `docs/….md#anchor` cited in the given source files that does not resolve, one sentence each. */
function citationsOf(sourceFiles: readonly string[], files: Files): string[] {
  const broken: string[] = [];
  for (const file of sourceFiles) {
    files
      .read(file)
      .split('\n')
      .forEach((text, index) => {
        for (const m of text.matchAll(/\bdocs\/[\w./-]*\.md(?:#[\w-]+)?/g)) {
          const [path = '', anchor] = m[0].split('#');
          const where = `${file}:${index + 1}: ${m[0]}`;
          if (!files.exists(path)) broken.push(`${where}: ${path} does not exist`);
          else if (anchor !== undefined && !anchorsOf(files.read(path)).has(anchor.toLowerCase())) broken.push(`${where}: ${path} has no heading with the anchor #${anchor}`);
        }
      });
  }
  return broken;
}

const repositoryFiles: Files = {
  exists: (path) => existsSync(join(ROOT, path)),
  read: (path) => (statSync(join(ROOT, path)).isFile() ? readFileSync(join(ROOT, path), 'utf8') : ''),
};

describe('links in the Markdown documents', () => {
  it('every relative link of every tracked *.md file resolves, anchors included', () => {
    // Prepare
    const markdownFiles = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((path) => path !== '' && existsSync(join(ROOT, path)));

    // Act
    const broken = brokenLinks(markdownFiles, repositoryFiles);

    // Assess
    expect(markdownFiles).toContain('README.md');
    expect(broken).toEqual([]);
  });

  it('every docs/….md page (and #anchor) that a code comment or a test cites exists', () => {
    // Prepare: the tracked source files, except this one (its synthetic documents are not citations).
    const sources = execFileSync('git', ['ls-files', 'lib', 'functions', 'infra', 'dashboard', 'test', 'events', '.ci'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((path) => /\.(ts|tsx|js|mjs|json|css|html)$|^\.ci\//.test(path) && path !== 'test/unit/docs-links.test.ts' && existsSync(join(ROOT, path)));

    // Act
    const broken = citationsOf(sources, repositoryFiles);

    // Assess
    expect(sources.length).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('docs/architecture.md has the Layers heading that code comments and tests cite', () => {
    // Prepare
    const architecture = 'docs/architecture.md';

    // Act
    const anchors = existsSync(join(ROOT, architecture)) ? anchorsOf(readFileSync(join(ROOT, architecture), 'utf8')) : new Set<string>();

    // Assess: code comments and tests cite docs/architecture.md#layers.
    expect(anchors).toContain('layers');
  });

  it('a synthetic set of documents: broken files and anchors are reported, good ones are not', () => {
    // Prepare
    const docs: Record<string, string> = {
      'README.md': [
        '# The service',
        'Read [the guide](docs/guide.md#the-single-table), [layers](docs/guide.md#layers-and-rules),',
        '[a missing page](docs/missing.md), [a wrong anchor](docs/guide.md#no-such-heading),',
        '[here](#the-service), [nowhere](#elsewhere), [the web](https://example.com/x.md#y),',
        '![a picture](docs/pic.png) and [a folder](docs/), [outside](../secret.md).',
        '```sh',
        'echo "[not a link](docs/nothing.md)"',
        '```',
        'and `[inline code](docs/nothing-either.md)`.',
      ].join('\n'),
      'docs/guide.md': ['# Guide', '## Layers and rules', '## The `single` table', '## The single table'].join('\n'),
      'docs/pic.png': '',
    };
    const files: Files = {
      exists: (path) => path in docs || path === 'docs',
      read: (path) => docs[path] ?? '',
    };

    // Act
    const broken = brokenLinks(['README.md', 'docs/guide.md'], files);

    // Assess
    expect(broken).toEqual([
      'README.md:3: docs/missing.md: docs/missing.md does not exist',
      'README.md:3: docs/guide.md#no-such-heading: docs/guide.md has no heading with the anchor #no-such-heading',
      'README.md:4: #elsewhere: README.md has no heading with the anchor #elsewhere',
      'README.md:5: ../secret.md: points outside the repository',
    ]);
  });

  it('anchors follow GitHub: punctuation dropped, spaces to dashes, repeats numbered', () => {
    // Prepare
    const markdown = ['## Adding an endpoint', '## Why no `@middy/http-json-body-parser`?', '## Cost: $ per scan', '## Cost: $ per scan'].join('\n');

    // Act
    const anchors = anchorsOf(markdown);

    // Assess
    expect([...anchors]).toEqual(['adding-an-endpoint', 'why-no-middyhttp-json-body-parser', 'cost--per-scan', 'cost--per-scan-1']);
  });
});
