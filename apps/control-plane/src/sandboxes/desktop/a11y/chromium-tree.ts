import { convert, SKIPPED_ROLES, type AXNode } from './ax-convert';
import type { Cdp } from './box-cdp';
import {
  frameOwners,
  METRICS_EXPRESSION,
  pageLayout,
  quadRect,
  type Rect,
  viewportOrigin,
  type PageLayout,
  type Snapshot,
  type WindowMetrics,
} from './page-layout';
import type { Bounds, SourceApp, SourceNode } from './tree-shape';

/** What a Chromium ref finds its node again by, and the fingerprint it must still match. */
export interface ChromiumHandle {
  app: 'chromium';
  targetId: string;
  backendNodeId: number | null;
  rawRole: string;
  name: string;
}

/**
 * The desktop's tabs over one DevTools connection: a flattened session per page target,
 * attached once with the Accessibility domain enabled, so Chromium keeps its tree built
 * (forced on without --force-renderer-accessibility) and each later read is one call per frame.
 */
export class ChromiumTabs {
  private readonly sessions = new Map<string, Promise<string>>();

  constructor(readonly cdp: Cdp) {}

  session(targetId: string): Promise<string> {
    let s = this.sessions.get(targetId);
    if (s === undefined) {
      s = this.attach(targetId);
      this.sessions.set(targetId, s);
      s.catch(() => this.sessions.delete(targetId));
    }
    return s;
  }

  /** A session Chromium detached (its tab closed): attached again at its next use. */
  detached(sessionId: string): void {
    for (const [target, s] of this.sessions) {
      void s.then(
        (id) => id === sessionId && this.sessions.delete(target),
        () => undefined,
      );
    }
  }

  async pages(): Promise<string[]> {
    const { targetInfos } = await this.cdp<{
      targetInfos: { type: string; targetId: string }[];
    }>('Target.getTargets');
    return targetInfos.filter((t) => t.type === 'page').map((t) => t.targetId);
  }

  private async attach(targetId: string): Promise<string> {
    const { sessionId } = await this.cdp<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    await this.cdp('Accessibility.enable', {}, sessionId);
    return sessionId;
  }
}

export async function metricsOf(cdp: Cdp, sessionId: string): Promise<WindowMetrics> {
  const r = await cdp<{ result: { value: WindowMetrics } }>(
    'Runtime.evaluate',
    { expression: METRICS_EXPRESSION, returnByValue: true },
    sessionId,
  );
  return r.result.value;
}

interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}

const frameIds = (t: FrameTree): string[] => [
  t.frame.id,
  ...(t.childFrames ?? []).flatMap(frameIds),
];

/** Screen pixels of a viewport rect. */
type ToScreen = (r: [number, number, number, number]) => Bounds;

/** One tab's document node, its frames' documents under their iframe nodes. */
async function readTab(
  tabs: ChromiumTabs,
  targetId: string,
  sessionId: string,
  m: WindowMetrics,
  hiddenTab: boolean,
): Promise<SourceNode<ChromiumHandle> | null> {
  const cdp = tabs.cdp;
  const [tree, snap, main] = await Promise.all([
    cdp<{ frameTree: FrameTree }>('Page.getFrameTree', {}, sessionId),
    cdp<Snapshot>('DOMSnapshot.captureSnapshot', { computedStyles: [] }, sessionId),
    cdp<{ nodes: AXNode[] }>('Accessibility.getFullAXTree', {}, sessionId),
  ]);
  const [, ...children] = frameIds(tree.frameTree);
  const owners = frameOwners(snap);
  // A frame in another process (another site's) has no tree here: it is left out.
  const frames = await Promise.all(
    children.map(async (frameId) => {
      const owner = owners.get(frameId);
      if (owner === undefined) return null;
      const [ax, box] = await Promise.all([
        cdp<{ nodes: AXNode[] }>('Accessibility.getFullAXTree', { frameId }, sessionId),
        cdp<{ model: { content: number[] } }>(
          'DOM.getBoxModel',
          { backendNodeId: owner },
          sessionId,
        ),
      ]).catch(() => [null, null] as const);
      return ax && box ? { owner, nodes: ax.nodes, box: quadRect(box.model.content) } : null;
    }),
  );
  const roots = new Map<number, AXNode[]>();
  const boxes = new Map<number, Rect>();
  for (const f of frames) {
    if (f === null) continue;
    roots.set(f.owner, f.nodes);
    boxes.set(f.owner, f.box);
  }
  const layout = pageLayout(snap, { width: m.innerWidth, height: m.innerHeight }, boxes);
  const o = viewportOrigin(m);
  const toScreen: ToScreen = (r) => [
    Math.round(o.x + r[0] * o.scale),
    Math.round(o.y + r[1] * o.scale),
    Math.round(r[2] * o.scale),
    Math.round(r[3] * o.scale),
  ];
  const build = new TreeBuilder(targetId, layout, toScreen, hiddenTab, roots);
  return build.root(main.nodes);
}

class TreeBuilder {
  constructor(
    private readonly targetId: string,
    private readonly layout: PageLayout,
    private readonly toScreen: ToScreen,
    private readonly hiddenTab: boolean,
    private readonly frames: Map<number, AXNode[]>,
  ) {}

  root(nodes: AXNode[]): SourceNode<ChromiumHandle> | null {
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const root = nodes.find((n) => !(n as { parentId?: string }).parentId) ?? nodes[0];
    return root ? this.node(root, byId, '') : null;
  }

  private node(
    n: AXNode,
    byId: Map<string, AXNode>,
    parentName: string,
  ): SourceNode<ChromiumHandle> | null {
    const c = convert(n);
    if (SKIPPED_ROLES.has(c.rawRole)) return null;
    // A text node repeating its parent's name (a button's label) says nothing more.
    if (c.rawRole === 'StaticText' && c.name === parentName) c.name = '';
    const id = n.backendDOMNodeId ?? null;
    const placed = id === null ? undefined : this.layout.nodes.get(id);
    const hidden =
      this.hiddenTab || c.states.includes('hidden') || (placed ? !placed.visible : false);
    const name = c.name || parentName;
    const children: SourceNode<ChromiumHandle>[] = [];
    for (const cid of n.childIds ?? []) {
      const child = byId.get(cid);
      const made = child && this.node(child, byId, name);
      if (made) children.push(made);
    }
    const frame = id === null ? undefined : this.frames.get(id);
    if (frame) {
      const sub = new TreeBuilder(
        this.targetId,
        this.layout,
        this.toScreen,
        this.hiddenTab,
        this.frames,
      );
      const doc = sub.root(frame);
      if (doc) children.push(doc);
    }
    return {
      role: c.role,
      name: c.name,
      states: hidden && !this.hiddenTab ? [...c.states, 'offscreen'] : c.states,
      bounds: placed ? this.toScreen(placed.rect) : null,
      actions: c.actions,
      ...(c.text !== undefined ? { text: c.text } : {}),
      hidden,
      children,
      handle: {
        app: 'chromium',
        targetId: this.targetId,
        backendNodeId: id,
        rawRole: c.rawRole,
        name: c.name,
      },
    };
  }
}

/**
 * Chromium as an application of the tree: the tab on screen (every tab with include_hidden),
 * or null when Chromium has no page.
 */
export async function chromiumApp(
  tabs: ChromiumTabs,
  includeHidden: boolean,
): Promise<SourceApp<ChromiumHandle> | null> {
  const targets = await tabs.pages();
  const seen = await Promise.all(
    targets.map(async (targetId) => {
      const sessionId = await tabs.session(targetId);
      return { targetId, sessionId, m: await metricsOf(tabs.cdp, sessionId) };
    }),
  );
  const shown = seen.filter((t) => includeHidden || t.m.visible);
  const docs = await Promise.all(
    shown.map((t) => readTab(tabs, t.targetId, t.sessionId, t.m, !t.m.visible)),
  );
  const front = seen.find((t) => t.m.visible)?.m;
  const s = front?.devicePixelRatio || 1;
  return {
    role: 'application',
    name: 'chromium',
    states: [],
    bounds: front
      ? [front.screenX * s, front.screenY * s, front.outerWidth * s, front.outerHeight * s]
      : null,
    actions: [],
    hidden: false,
    children: docs.filter((d): d is SourceNode<ChromiumHandle> => d !== null),
    handle: {
      app: 'chromium',
      targetId: '',
      backendNodeId: null,
      rawRole: 'application',
      name: 'chromium',
    },
  };
}
