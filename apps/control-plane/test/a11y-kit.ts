import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningApp } from './harness';
import { call, makeKey, mcpClient, startSandboxApp } from './sandbox-kit';
import type { A11yNode, TreeAnswer } from '../src/sandboxes/desktop/a11y/tree-shape';

export type { A11yNode } from '../src/sandboxes/desktop/a11y/tree-shape';

/** Every node of a tree, parents before their children. */
export const flat = (nodes: A11yNode[]): A11yNode[] =>
  nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

/** The first node with this role and name. */
export const named = (nodes: A11yNode[], role: string, name: string) =>
  flat(nodes).find((n) => n.role === role && n.name === name);

/**
 * A control plane with one sandbox (named `name`) for a file's accessibility tests, made before
 * them and destroyed after, with its desktop; and the calls they make on it.
 */
export function a11ySandbox(name: string) {
  const sb = { sandbox: name };
  const s = {
    sb,
    api: undefined as unknown as RunningApp,
    client: undefined as unknown as Client,
    id: '',
    ok: async (tool: string, args: Record<string, unknown>) => {
      const r = await call(s.client, tool, args);
      if (r.isError) throw new Error(`${tool}: ${JSON.stringify(r.body)}`);
      return r.body;
    },
    tree: async (args: Record<string, unknown> = {}) =>
      (await s.ok('sandbox_accessibility_tree', { ...sb, ...args })) as TreeAnswer,
    act: (args: Record<string, unknown>) =>
      call(s.client, 'sandbox_accessibility_action', { ...sb, ...args }),
    /** Reads the tree until `okay` holds for it (a page loads after open_url answers). */
    treeUntil: async (okay: (nodes: A11yNode[]) => boolean, args = {}, ms = 30_000) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const t = await s.tree(args);
        if (okay(t.nodes) || Date.now() > deadline) return t;
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
  beforeAll(async () => {
    s.api = await startSandboxApp();
    s.client = await mcpClient(s.api, (await makeKey(s.api)).key);
    s.id = (await call(s.client, 'sandbox_create', { name })).body.id;
  }, 60_000);
  afterAll(async () => {
    await call(s.client, 'sandbox_desktop', { ...sb, action: 'stop' });
    await call(s.client, 'sandbox_destroy', sb);
    await s.client.close();
    await s.api.close();
  });
  return s;
}
