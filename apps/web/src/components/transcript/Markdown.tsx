import { memo, type ComponentProps, type ReactElement } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { safeUrl } from '../../format';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Raw HTML in agent text is shown as the text it is (`<script>` reads as `<script>`), never
 * parsed: each html node of the markdown tree becomes a text node.
 */
function remarkHtmlAsText() {
  const FLOW = new Set(['root', 'blockquote', 'listItem']);
  const walk = (node: MdNode) => {
    node.children = node.children?.map((child) => {
      if (child.type !== 'html') return child;
      const text = { type: 'text', value: child.value };
      // A block of HTML becomes a paragraph of its text, a tag in a line that text.
      return FLOW.has(node.type) ? { type: 'paragraph', children: [text] } : text;
    });
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

/**
 * Links open in a new tab, telling the page nothing of ours (no opener, no referrer); only
 * http(s) ones are links (as in markers), the others their text.
 */
function Link({ node: _node, href, children, ...rest }: ComponentProps<'a'> & { node?: unknown }) {
  const url = href ? safeUrl(href) : null;
  if (url === null) return <span>{children}</span>;
  return (
    <a {...rest} href={url} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** A code block scrolls sideways: focusable, so a keyboard can scroll it. */
function Pre({ node: _node, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  return <pre {...rest} tabIndex={0} />;
}

/** A table may be wider than the bubble: it scrolls in its own focusable box. */
function Table({ node: _node, ...rest }: ComponentProps<'table'> & { node?: unknown }) {
  return (
    <div className="md-table" tabIndex={0}>
      <table {...rest} />
    </div>
  );
}

/** A task list's box (GFM, read-only): named by its state, the item's text beside it. */
function Input({ node: _node, ...rest }: ComponentProps<'input'> & { node?: unknown }) {
  if (rest.type !== 'checkbox') return <input {...rest} />;
  return <input {...rest} aria-label={rest.checked ? 'Done' : 'Not done'} />;
}

const COMPONENTS: Components = { a: Link, pre: Pre, table: Table, input: Input };
const REMARK = [remarkGfm, remarkHtmlAsText];
// rehype-highlight builds a lowlight of ~37 languages each time it is attached, and
// react-markdown attaches its plugins on every render: that was most of a row's first render
// (a long transcript's rows mount as it scrolls). Its transformer, made once, is reused.
const highlight = rehypeHighlight({ detect: false });
const rehypeHighlightOnce = () => highlight;
// Sanitize first (it keeps code's language-* class), then highlight (its hljs-* classes).
const REHYPE = [rehypeSanitize, rehypeHighlightOnce] as NonNullable<
  ComponentProps<typeof ReactMarkdown>['rehypePlugins']
>;

/** How many texts' rendered markdown is kept (a row scrolled back into view reuses it). */
const KEPT = 500;
const rendered = new Map<string, ReactElement>();

/** The text rendered (react-markdown's sync render is a pure function of its input). */
function renderedMarkdown(text: string): ReactElement {
  let element = rendered.get(text);
  if (element === undefined) {
    element = ReactMarkdown({
      children: text,
      remarkPlugins: REMARK,
      rehypePlugins: REHYPE,
      components: COMPONENTS,
    });
    if (rendered.size >= KEPT) rendered.delete(rendered.keys().next().value as string);
  } else {
    rendered.delete(text);
  }
  rendered.set(text, element);
  return element;
}

/**
 * Agent text as markdown (GFM: tables, task lists, strikethrough, autolinks), sanitized, its
 * code fences highlighted. react-markdown's URL filter drops javascript: and other unsafe
 * links; no raw HTML is rendered.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <div className="md">{renderedMarkdown(text)}</div>;
});
