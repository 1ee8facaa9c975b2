/**
 * `sessionboxer sandbox a11y SANDBOX` (sandbox_accessibility_tree, `div sandbox a11y`) and
 * `sandbox a11y-action SANDBOX REF ACTION` (sandbox_accessibility_action) with an API key,
 * through sandbox.command's REST call. A person sees the tree one node a line, indented by
 * depth: `n12 button "Send" [focusable] @640,480 96x32 (press)`; --json gives the answer.
 */
export const A11Y_HELP = `  sessionboxer sandbox a11y SANDBOX [--app NAME] [--depth N] [--include-hidden]
  sessionboxer sandbox a11y-action SANDBOX REF press|focus|set-text|read|ACTION [--text T]`;

export const A11Y_VERBS = ['a11y', 'a11y-action'];

export const A11Y_OPTIONS = {
  app: { type: 'string' },
  depth: { type: 'string' },
  'include-hidden': { type: 'boolean' },
} as const;

interface A11yValues {
  app?: string;
  depth?: string;
  'include-hidden'?: boolean;
  text?: string;
}

interface A11yNode {
  ref: string;
  role: string;
  name: string;
  states?: string[];
  bounds?: [number, number, number, number] | null;
  actions?: string[];
  text?: string;
  children?: A11yNode[];
}

/** The tool and arguments of `sandbox a11y…`; the server checks every value. */
export function a11yCall(
  verb: string,
  rest: string[],
  v: A11yValues,
): [string, Record<string, unknown>] {
  const args: Record<string, unknown> = { sandbox: rest[0] };
  if (verb === 'a11y-action') {
    args.ref = rest[1];
    args.action = rest[2];
    if (v.text !== undefined) args.text = v.text;
    return ['sandbox_accessibility_action', args];
  }
  if (v.app !== undefined) args.app = v.app;
  if (v.depth !== undefined) args.depth = Number(v.depth);
  if (v['include-hidden'] !== undefined) args.include_hidden = v['include-hidden'];
  return ['sandbox_accessibility_tree', args];
}

function line(n: A11yNode, depth: number): string {
  const parts = [`${'  '.repeat(depth)}${n.ref} ${n.role}`];
  if (n.name) parts.push(JSON.stringify(n.name));
  if (n.text !== undefined) parts.push(`text=${JSON.stringify(n.text)}`);
  if (n.states?.length) parts.push(`[${n.states.join(' ')}]`);
  if (n.bounds) parts.push(`@${n.bounds[0]},${n.bounds[1]} ${n.bounds[2]}x${n.bounds[3]}`);
  if (n.actions?.length) parts.push(`(${n.actions.join(' ')})`);
  return parts.join(' ');
}

function lines(nodes: A11yNode[], depth: number, out: string[]): string[] {
  for (const n of nodes) {
    out.push(line(n, depth));
    lines(n.children ?? [], depth + 1, out);
  }
  return out;
}

/** What a person sees: the tree one node a line; an action's answer as one line too. */
export function a11yHuman(tool: string, body: Record<string, unknown>): string {
  if (tool === 'sandbox_accessibility_action') {
    if (typeof body.done === 'string') return `${String(body.ref)}: ${body.done}`;
    return line(body as unknown as A11yNode, 0);
  }
  const out = lines((body.nodes ?? []) as A11yNode[], 0, []);
  if (body.truncated === true) out.push('[cut at 4,000 nodes: narrow it with --app or --depth]');
  return out.join('\n');
}
