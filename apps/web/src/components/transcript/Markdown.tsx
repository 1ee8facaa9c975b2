import { memo, type ComponentProps } from 'react';
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
// Sanitize first (it keeps code's language-* class), then highlight (its hljs-* classes).
const REHYPE = [rehypeSanitize, [rehypeHighlight, { detect: false }]] as NonNullable<
  ComponentProps<typeof ReactMarkdown>['rehypePlugins']
>;

/**
 * Agent text as markdown (GFM: tables, task lists, strikethrough, autolinks), sanitized, its
 * code fences highlighted. react-markdown's URL filter drops javascript: and other unsafe
 * links; no raw HTML is rendered.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown remarkPlugins={REMARK} rehypePlugins={REHYPE} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
