/**
 * The answer of sandbox_accessibility_tree from every application's nodes, whoever read them
 * (Chromium over DevTools, other programs over AT-SPI): the spec's rules applied once here.
 * Pure: no I/O.
 */

/** [x, y, width, height] in screenshot pixels. */
export type Bounds = [number, number, number, number];

/** A node as its reader found it, before the answer's rules; `handle` finds it again. */
export interface SourceNode<H> {
  role: string;
  name: string;
  states: string[];
  bounds: Bounds | null;
  actions: string[];
  text?: string;
  /** Not on screen (off the viewport, in a background tab, hidden). */
  hidden: boolean;
  children: SourceNode<H>[];
  handle: H;
}

/** An application: its node (role application) holds its top nodes as children. */
export type SourceApp<H> = SourceNode<H>;

export interface A11yNode {
  ref: string;
  role: string;
  name: string;
  states: string[];
  bounds: Bounds | null;
  actions: string[];
  text?: string;
  children?: A11yNode[];
}

export interface TreeAnswer {
  apps: string[];
  nodes: A11yNode[];
  truncated: boolean;
}

export interface ShapeOptions {
  /** Levels of the answer, the applications' nodes being level 1. */
  depth: number;
  includeHidden: boolean;
  /** Past this many nodes the answer stops and says truncated. */
  max: number;
  /** The number of the first ref: refs of one sandbox never repeat, so an old one is known. */
  firstRef: number;
}

/** A long name or text is cut: the answer is for reading, a field's full text is in read. */
export const NAME_MAX = 400;
export const TEXT_MAX = 4000;

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A node is answered when it has a name, a text or an action, and is on screen (or asked). */
function kept(n: SourceNode<unknown>, includeHidden: boolean): boolean {
  return (
    (n.name !== '' || n.text !== undefined || n.actions.length > 0) && (includeHidden || !n.hidden)
  );
}

/** The answer node of `n` (no children yet). */
export function answerNode(n: SourceNode<unknown>, ref: string): A11yNode {
  const node: A11yNode = {
    ref,
    role: n.role,
    name: cut(n.name, NAME_MAX),
    states: n.states,
    bounds: n.bounds,
    actions: n.actions,
  };
  if (n.text !== undefined) node.text = cut(n.text, TEXT_MAX);
  return node;
}

/**
 * The answer, and each ref's handle. Nodes left out give their place to their children;
 * depth counts the answer's levels; the walk is depth-first, so truncation drops the end.
 */
export function shapeTree<H>(
  apps: SourceApp<H>[],
  opts: ShapeOptions,
): { answer: TreeAnswer; refs: Map<string, H>; nextRef: number } {
  const refs = new Map<string, H>();
  let next = opts.firstRef;
  let truncated = false;
  const walk = (n: SourceNode<H>, level: number, out: A11yNode[]): void => {
    if (truncated) return;
    if (!kept(n, opts.includeHidden)) {
      for (const c of n.children) walk(c, level, out);
      return;
    }
    if (refs.size >= opts.max) {
      truncated = true;
      return;
    }
    const ref = `n${next++}`;
    refs.set(ref, n.handle);
    const node = answerNode(n, ref);
    out.push(node);
    if (level >= opts.depth || n.children.length === 0) return;
    const children: A11yNode[] = [];
    for (const c of n.children) walk(c, level + 1, children);
    if (children.length > 0) node.children = children;
  };
  const nodes: A11yNode[] = [];
  for (const app of apps) {
    // An application is answered even when it shows nothing: it says it runs.
    walk({ ...app, hidden: false, actions: app.actions, name: app.name || app.role }, 1, nodes);
  }
  return { answer: { apps: apps.map((a) => a.name), nodes, truncated }, refs, nextRef: next };
}
