/**
 * Sections of a Markdown file that several commands write: docs/benchmarks.md is written
 * whole by `npm run bench` (bench/run.ts) but for the sections `npm run bench:scale`
 * (bench/scale.ts) and `npm run bench:compare` (bench/compare.ts) write, which each keeps
 * or replaces without touching the rest.
 */

/** The heading of bench:scale's section of docs/benchmarks.md. */
export const SCALE_HEADING = '## Scale (issue 29)';

/** The heading of bench:compare's section (bench/compare.ts). */
export const COMPARE_HEADING = '## Before and after';

/** The sections of docs/benchmarks.md that other commands than `npm run bench` write, which it keeps. */
const KEPT_HEADINGS = [SCALE_HEADING, COMPARE_HEADING];

const escaped = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the section under `heading` (a whole line) starts and ends in `text`: up to the next heading of its level or above, or the end. */
function sectionBounds(text: string, heading: string): { start: number; end: number } | undefined {
  const start = text.search(new RegExp(`^${escaped(heading)}$`, 'm'));
  if (start < 0) return undefined;
  const level = /^#+/.exec(heading)![0].length;
  const next = text.slice(start + heading.length).search(new RegExp(`^#{1,${level}} `, 'm'));
  return { start, end: next < 0 ? text.length : start + heading.length + next };
}

/** The section under `heading` in `text`, its heading line included and trailing blank lines left out; undefined when there is none. */
export function sectionOf(text: string, heading: string): string | undefined {
  const bounds = sectionBounds(text, heading);
  return bounds && text.slice(bounds.start, bounds.end).trimEnd();
}

/** `text` with the section under `heading` replaced by `section` (which starts with that heading), or `section` added at the end. */
export function withSection(text: string, heading: string, section: string): string {
  const bounds = sectionBounds(text, heading);
  if (!bounds) return `${text.trim() === '' ? '' : `${text.trimEnd()}\n\n`}${section.trimEnd()}\n`;
  const rest = text.slice(bounds.end);
  return `${text.slice(0, bounds.start)}${section.trimEnd()}\n${rest === '' ? '' : `\n${rest}`}`;
}

/** The sections of `text` under headings of `prefix` (`### ` say), by heading line, in order; what comes before the first is left out. */
export function subsections(text: string, prefix: string): Map<string, string> {
  const parts = text.split(new RegExp(`^(?=${escaped(prefix)})`, 'm')).slice(1);
  return new Map(parts.map((part) => [part.slice(0, part.indexOf('\n') < 0 ? part.length : part.indexOf('\n')), part.trimEnd()]));
}

/** `rewritten` (what `npm run bench` writes) with the sections of other commands that `previous` has, in KEPT_HEADINGS' order. */
export function withKeptSections(rewritten: string, previous: string): string {
  let written = rewritten;
  for (const heading of KEPT_HEADINGS) {
    const kept = sectionOf(previous, heading);
    if (kept !== undefined) written = withSection(written, heading, kept);
  }
  return written;
}
