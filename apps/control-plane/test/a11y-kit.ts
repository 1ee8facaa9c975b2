/** What the accessibility tests read of sandbox_accessibility_tree's nodes. */
export interface A11yNode {
  ref: string;
  role: string;
  name: string;
  states: string[];
  bounds: [number, number, number, number] | null;
  actions: string[];
  text?: string;
  children?: A11yNode[];
}

/** Every node of a tree, parents before their children. */
export const flat = (nodes: A11yNode[]): A11yNode[] =>
  nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

/** The first node with this role and name. */
export const named = (nodes: A11yNode[], role: string, name: string) =>
  flat(nodes).find((n) => n.role === role && n.name === name);
