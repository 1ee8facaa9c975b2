import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { docsTool } from './docs';
import {
  cutText,
  SECTION_TEXT_MAX,
  searchGuide,
  splitGuide,
  stem,
  terms,
  type DocsAnswer,
} from './docs-search';

// The real guide, as it ships in every box.
const GUIDE = readFileSync(resolve(__dirname, '../../../../docs/GUIDE.md'), 'utf8');

function paths(answer: DocsAnswer): string[] {
  return answer.sections.map((s) => s.path);
}

describe('docs search over docs/GUIDE.md', () => {
  it.each([
    ['fork a session', 'Sessions › Fork a session'],
    ['pr_attach', 'The sessionboxer tools › pr_attach'],
    ['daemon unreachable', "Troubleshooting › The box's daemon is unreachable"],
    ['How do I rename a session?', 'Sessions › Rename a session'],
    ['what does settings_get hide', 'Settings › What settings_get hides'],
    ['session.json fields', 'Boxes and the workspace › .sessionboxer/session.json'],
    ['Transcript markers', 'The transcript › Transcript markers'],
    ['snapshots on Windows', 'Troubleshooting › snapshot is refused in a Windows or macOS session'],
    ['replay the events', 'Auditing › Replay'],
  ])('"%s" finds %s first', (query, best) => {
    const answer = searchGuide(GUIDE, query);
    expect(paths(answer)[0]).toBe(best);
    expect(answer.sections.length).toBeLessThanOrEqual(3);
    expect(answer.query).toBe(query);
  });

  it('answers heading, path and the section text', () => {
    const [first] = searchGuide(GUIDE, 'terminal_read').sections;
    expect(first.heading).toBe('terminal_read');
    expect(first.path).toBe('The sessionboxer tools › terminal_read');
    expect(first.text).toMatch(/^\| parameter \| required/);
    expect(first.text).toContain('1–2000');
    expect(first.text).not.toContain('### ');
  });

  it('chains headings down from below the title; the title is its own path', () => {
    const sections = splitGuide(GUIDE);
    expect(sections[0]).toMatchObject({ heading: 'Sessionboxer user guide' });
    expect(sections[0].path).toBe('Sessionboxer user guide');
    const level2 = sections.find((s) => s.heading === 'Snapshots');
    expect(level2?.path).toBe('Snapshots');
    const level3 = sections.find((s) => s.heading === '.mcp.json');
    expect(level3?.path).toBe('Boxes and the workspace › .mcp.json');
  });

  it('does not read a "#" comment inside a code block as a heading', () => {
    const guide = `${GUIDE}\n## Shell tips\n\n\`\`\`sh\n# not a heading\necho hi\n\`\`\`\n\nAfter.\n`;
    const sections = splitGuide(guide);
    expect(sections.map((s) => s.heading)).not.toContain('not a heading');
    expect(sections[sections.length - 1].text).toMatch(/# not a heading\necho hi\n```\n\nAfter\.$/);
  });

  it('with no match answers sections: [] and every heading of the guide', () => {
    for (const query of ['kubernetes helm chart', 'how do I', '???']) {
      const answer = searchGuide(GUIDE, query);
      expect(answer.sections).toEqual([]);
      expect('headings' in answer && answer.headings).toEqual(
        splitGuide(GUIDE).map((s) => s.heading),
      );
    }
  });

  it('keeps every section of the real guide whole (all are under the cut)', () => {
    for (const s of splitGuide(GUIDE)) expect(s.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
  });

  it('cuts a longer section at 6,000 characters', () => {
    const long = Array.from({ length: 400 }, (_, i) => `Line ${i} about zebra crossings.`).join(
      '\n',
    );
    const guide = `${GUIDE}\n## Zebra crossings\n\n${long}\n`;
    const [zebra] = searchGuide(guide, 'zebra crossings').sections;
    expect(zebra.path).toBe('Zebra crossings');
    expect(long.length).toBeGreaterThan(SECTION_TEXT_MAX);
    expect(zebra.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    expect(zebra.text.length).toBeGreaterThan(SECTION_TEXT_MAX * 0.9);
    expect(zebra.text.endsWith('…')).toBe(true);
    expect(long.startsWith(zebra.text.slice(0, -1))).toBe(true);
  });
});

describe('the words it compares', () => {
  it('ignores case, punctuation, accents and stop words', () => {
    expect(terms('How do I attach a PR? (pr_attach)')).toEqual(['attach', 'pr', 'pr', 'attach']);
    expect(terms('Résumé')).toEqual(terms('resume'));
  });

  it('reads plurals and verb forms as one word', () => {
    for (const [a, b] of [
      ['sessions', 'session'],
      ['snapshots', 'snapshot'],
      ['renamed', 'rename'],
      ['stopped', 'stop'],
      ['forking', 'fork'],
      ['settings', 'setting'],
      ['boxes', 'box'],
      ['replies', 'reply'],
    ]) {
      expect(stem(a)).toBe(stem(b));
    }
    expect(stem('status')).toBe('status');
    expect(stem('address')).toBe(stem('addressed'));
  });

  it('never ends a cut on half a character', () => {
    const text = `${'a'.repeat(SECTION_TEXT_MAX - 2)}😀😀`;
    const cut = cutText(text);
    expect(cut.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    expect(cut).toBe(`${'a'.repeat(SECTION_TEXT_MAX - 2)}…`);
  });
});

describe('the docs tool', () => {
  it('reads the guide through its port and searches it', async () => {
    const answer = await docsTool.handle(
      { readGuide: () => Promise.resolve(GUIDE) },
      { query: 'ui_open shown false' },
    );
    expect(paths(answer)[0]).toBe('Troubleshooting › ui_open answered shown: false');
  });
});
