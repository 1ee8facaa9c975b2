import { text } from '../kit/fields';
import { BEST_SECTIONS, SECTION_TEXT_MAX, searchGuide, type DocsAnswer } from './docs-search';
import { defineInBoxTool } from '../kit/define-tool';

/** What `docs` needs, inside the box: the user guide's Markdown. */
export interface DocsPort {
  readGuide(): Promise<string>;
}

export const QUERY_MAX = 500;

export const docsInput = { query: text('query', QUERY_MAX) };

/** Looks a topic up in the user guide that ships in the box. */
export const docsTool = defineInBoxTool({
  name: 'docs',
  title: 'Search the Sessionboxer user guide',
  description: [
    'Look a topic up in the Sessionboxer user guide, which ships in the box',
    '(/opt/sessionboxer/docs/GUIDE.md). Answer questions about Sessionboxer from it rather than',
    `from memory. query: 1–${QUERY_MAX} characters, a few words ("fork a session", "pr_attach",`,
    `"daemon unreachable"). Returns { query, sections: [{ heading, path, text }] }: the`,
    `${BEST_SECTIONS} best-matching sections by word overlap with their heading and text, each`,
    `cut at ${SECTION_TEXT_MAX} characters, path being the chain of headings`,
    '("Using it › MCP servers"). With no match, sections is empty and headings lists every',
    'heading of the guide: retry with one of them.',
  ].join(' '),
  input: docsInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'box',
  handle: async (port: DocsPort, { query }): Promise<DocsAnswer> =>
    searchGuide(await port.readGuide(), query),
});
