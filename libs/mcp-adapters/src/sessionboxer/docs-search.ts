/**
 * The `docs` tool's search: the user guide split into sections by heading, ranked by word overlap
 * with the query. Small and dependency-free on purpose: the guide is one file of a few hundred
 * lines, read in the box on every call.
 */

export const SECTION_TEXT_MAX = 6000;
export const BEST_SECTIONS = 3;
/** A query word found in a heading counts this many times one found in the text. */
const HEADING_WEIGHT = 3;
export const PATH_SEPARATOR = ' › ';

export interface GuideSection {
  heading: string;
  /** The chain of headings down to this one ("Using it › MCP servers"), without the title. */
  path: string;
  text: string;
}

export type DocsAnswer =
  { query: string; sections: GuideSection[] } | { query: string; sections: []; headings: string[] };

interface Section {
  heading: string;
  level: number;
  chain: string[];
  lines: string[];
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** `**Bold**`, `code` and [links](…) read as their words. */
function plainHeading(raw: string): string {
  return (
    raw
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      // Single underscores stay: tool names such as pr_attach are headings too.
      .replace(/\*+|__|`/g, '')
      .trim()
  );
}

/** Sections in document order; headings inside fenced code blocks are code, not headings. */
export function splitGuide(markdown: string): GuideSection[] {
  const sections: Section[] = [];
  const stack: { level: number; heading: string }[] = [];
  let fence: string | null = null;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const opening = FENCE.exec(line)?.[1];
    if (opening !== undefined && (fence === null || opening.startsWith(fence))) {
      fence = fence === null ? opening : null;
    }
    const match = fence === null && opening === undefined ? HEADING.exec(line) : null;
    const current = sections[sections.length - 1];
    if (match === null) {
      current?.lines.push(line);
      continue;
    }
    const level = match[1].length;
    const heading = plainHeading(match[2]);
    while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, heading });
    sections.push({ heading, level, chain: stack.map((s) => s.heading), lines: [] });
  }
  return withPaths(sections);
}

/** One level-1 heading at the top is the guide's title: paths start below it. */
function withPaths(sections: Section[]): GuideSection[] {
  const titled = sections[0]?.level === 1 && sections.filter((s) => s.level === 1).length === 1;
  return sections.map((s, i) => ({
    heading: s.heading,
    path: (titled && i > 0 ? s.chain.slice(1) : s.chain).join(PATH_SEPARATOR),
    text: s.lines.join('\n').trim(),
  }));
}

const STOP_WORDS = new Set(
  (
    'a an the and or but nor of to in on at by for with without from into onto about as is are ' +
    'was were be been being am do does did done doing have has had having i me my mine you your ' +
    'yours we us our it its he she they them their this that these those there here what which ' +
    'who whom whose when where why how can could should would will shall may might must not no ' +
    'yes so if then than too very just also only any some all each every more most other such ' +
    'own same both again once up down out over under off get gets got want wants need needs ' +
    'please tell show explain use using used'
  ).split(' '),
);

/** A light stemmer: plurals, -ing, -ed, a doubled final consonant, a final e. */
export function stem(word: string): string {
  if (word.length <= 3 || /(ss|us|is)$/.test(word)) return word;
  let w = word;
  if (/ies$/.test(w) && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (/[^su]s$/.test(w)) w = w.slice(0, -1);
  if (/ing$/.test(w) && w.length > 5) w = w.slice(0, -3);
  else if (/ed$/.test(w) && w.length > 4) w = w.slice(0, -2);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  if (/e$/.test(w) && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Lower case, accents and punctuation gone, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !STOP_WORDS.has(w))
    .map(stem);
}

interface Indexed {
  section: GuideSection;
  heading: Set<string>;
  counts: Map<string, number>;
}

function index(section: GuideSection): Indexed {
  const counts = new Map<string, number>();
  for (const t of terms(section.text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { section, heading: new Set(terms(section.heading)), counts };
}

/** Rarer words weigh more (idf), so "snapshot" outranks "session" in "session snapshot". */
function rarity(all: Indexed[]): (term: string) => number {
  return (term) => {
    const df = all.filter((s) => s.heading.has(term) || s.counts.has(term)).length;
    return Math.log(1 + all.length / Math.max(df, 1));
  };
}

function score(doc: Indexed, query: string[], idf: (t: string) => number): number {
  return query.reduce((sum, t) => {
    const inHeading = doc.heading.has(t) ? HEADING_WEIGHT : 0;
    const inText = doc.counts.has(t) ? 1 : 0;
    return sum + idf(t) * (inHeading + inText);
  }, 0);
}

/** How often the query's words occur: breaks ties between equally overlapping sections. */
function occurrences(doc: Indexed, query: string[]): number {
  return query.reduce((sum, t) => sum + (doc.counts.get(t) ?? 0), 0);
}

/** At most SECTION_TEXT_MAX characters, ending at a line when one is near, with "…". */
export function cutText(text: string): string {
  if (text.length <= SECTION_TEXT_MAX) return text;
  let head = text.slice(0, SECTION_TEXT_MAX - 1);
  const lastLine = head.lastIndexOf('\n');
  if (lastLine > SECTION_TEXT_MAX * 0.9) head = head.slice(0, lastLine);
  // Never end on half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head.trimEnd()}…`;
}

export function searchGuide(markdown: string, query: string): DocsAnswer {
  const sections = splitGuide(markdown);
  const wanted = [...new Set(terms(query))];
  const all = sections.map(index);
  const idf = rarity(all);
  const ranked = all
    .map((doc, order) => ({ doc, order, score: score(doc, wanted, idf) }))
    .filter((r) => r.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        occurrences(b.doc, wanted) - occurrences(a.doc, wanted) ||
        a.order - b.order,
    );
  if (ranked.length === 0) return { query, sections: [], headings: sections.map((s) => s.heading) };
  const best = ranked.slice(0, BEST_SECTIONS).map((r) => r.doc.section);
  return { query, sections: best.map((s) => ({ ...s, text: cutText(s.text) })) };
}
