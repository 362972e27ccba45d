// The files a reader reaches from the README by following relative links: the docs the package must carry.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** The link targets of a Markdown text, code blocks aside (the pattern test/docs/docs.test.ts reads). */
export function links(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/(?<!\\)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target]) => target!);
}

/** The relative link targets of a Markdown text, as paths (no fragment, decoded). */
export function relativeLinks(markdown: string): string[] {
  return links(markdown)
    .filter((target) => !/^(https?:|mailto:|#)/.test(target))
    .map((target) => decodeURIComponent(target.split('#')[0]!));
}

/**
 * Every file reached from README.md through relative links, Markdown files followed on: what the package must
 * carry. What only the repository holds (samples/, docs/reference/, CONTRIBUTING.md) is linked by its address at
 * the release tag instead (scripts/release.mjs, TAGGED_DOCS). A link to a folder reaches the files directly in it
 * (docs/api/ is the reports, not docs/api/released/).
 */
export function linkedFiles(root: string): string[] {
  const packaged = new Set<string>();
  const visit = (file: string) => {
    if (packaged.has(file)) return;
    packaged.add(file);
    if (!file.endsWith('.md')) return;
    for (const target of relativeLinks(readFileSync(join(root, file), 'utf8'))) {
      const path = normalize(join(dirname(file), target)).replace(/\/$/, '');
      const full = join(root, path);
      if (!existsSync(full)) continue; // test/docs/docs.test.ts reports broken links
      if (!statSync(full).isDirectory()) visit(path);
      else for (const entry of readdirSync(full, { withFileTypes: true })) if (entry.isFile()) visit(relative(root, join(full, entry.name)));
    }
  };
  visit('README.md');
  return [...packaged].sort();
}
