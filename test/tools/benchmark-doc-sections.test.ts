import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMPARE_HEADING, SCALE_HEADING, sectionOf, subsections, withKeptSections, withSection } from '../../bench/doc-sections.js';

/** docs/benchmarks.md as npm run bench writes it, with bench:scale's section between its own. */
const DOC = `# Benchmarks

Intro.

## 1,000 products

| a table |

${SCALE_HEADING}

How to run it.

### SQLite, 100,000 products

| old SQLite |

### PostgreSQL, 100,000 products

| old PostgreSQL |

## Sandbox flow

| flows |
`;

describe('docs/benchmarks.md sections (bench/doc-sections.ts)', () => {
  it('reads a section up to the next heading of its level, its subsections included', () => {
    const section = sectionOf(DOC, SCALE_HEADING)!;
    assert.ok(section.startsWith(`${SCALE_HEADING}\n`));
    assert.ok(section.endsWith('| old PostgreSQL |'));
    assert.equal(sectionOf('# Benchmarks\n\n## Other\n', SCALE_HEADING), undefined);
  });

  it('replaces a section in place and keeps what follows it', () => {
    const replaced = withSection(DOC, SCALE_HEADING, `${SCALE_HEADING}\n\nNew.\n`);
    assert.equal(sectionOf(replaced, SCALE_HEADING), `${SCALE_HEADING}\n\nNew.`);
    assert.ok(replaced.includes('## 1,000 products\n\n| a table |\n\n## Scale'));
    assert.ok(replaced.endsWith('New.\n\n## Sandbox flow\n\n| flows |\n'));
  });

  it('adds a missing section at the end, and makes a file of it alone', () => {
    assert.equal(withSection('# Benchmarks\n\nIntro.\n', SCALE_HEADING, `${SCALE_HEADING}\n\nNew.`), `# Benchmarks\n\nIntro.\n\n${SCALE_HEADING}\n\nNew.\n`);
    assert.equal(withSection('', SCALE_HEADING, `${SCALE_HEADING}\n\nNew.`), `${SCALE_HEADING}\n\nNew.\n`);
  });

  it("keeps what npm run bench's whole rewrite would lose: the section read from the old file put into the new one", () => {
    const rewritten = '# Benchmarks\n\nNew intro.\n\n## Sandbox flow\n\n| new flows |\n';
    const kept = withSection(rewritten, SCALE_HEADING, sectionOf(DOC, SCALE_HEADING)!);
    assert.equal(sectionOf(kept, SCALE_HEADING), sectionOf(DOC, SCALE_HEADING));
    assert.ok(kept.includes('| new flows |'));
  });

  it("npm run bench's rewrite keeps bench:scale's and bench:compare's sections from the file before, and drops its own old ones", () => {
    const previous = `${DOC}\n${COMPARE_HEADING}\n\n| before and after |\n`;
    const rewritten = '# Benchmarks\n\nNew intro.\n\n## 1,000 products\n\n| new table |\n';
    const written = withKeptSections(rewritten, previous);
    assert.equal(sectionOf(written, SCALE_HEADING), sectionOf(DOC, SCALE_HEADING));
    assert.equal(sectionOf(written, COMPARE_HEADING), `${COMPARE_HEADING}\n\n| before and after |`);
    assert.ok(written.includes('| new table |') && !written.includes('| a table |') && !written.includes('| flows |'));
    assert.ok(written.indexOf(SCALE_HEADING) < written.indexOf(COMPARE_HEADING));
    assert.equal(withKeptSections(rewritten, ''), rewritten, 'a first run keeps nothing');
  });

  it('lists the subsections by heading line, in order', () => {
    const found = subsections(sectionOf(DOC, SCALE_HEADING)!, '### ');
    assert.deepEqual([...found.keys()], ['### SQLite, 100,000 products', '### PostgreSQL, 100,000 products']);
    assert.equal(found.get('### SQLite, 100,000 products'), '### SQLite, 100,000 products\n\n| old SQLite |');
  });
});
