import { convert, SKIPPED_ROLES, type AXNode } from './ax-convert';
import type { ChromiumHandle, TargetSessions } from './chromium-handle';
import {
  frameOwners,
  intersect,
  pageLayout,
  quadRect,
  type PageLayout,
  type Rect,
  type Snapshot,
} from './page-layout';
import { frameOwnerBox, placeFrameLayout, type FrameLink, type FrameTarget } from './remote-frames';
import type { Bounds, SourceNode } from './tree-shape';

/**
 * One tab's tree: its document, each in-process frame's document under its iframe node (one
 * getFullAXTree per frame over the tab's session), and each cross-site frame's under its iframe
 * node, read through that frame's own target (remote-frames.ts), recursively.
 */

interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}

const frameIds = (t: FrameTree): string[] => [
  t.frame.id,
  ...(t.childFrames ?? []).flatMap(frameIds),
];

/** Screen pixels of a rect in the tab's viewport. */
export type ToScreen = (r: Rect) => Bounds;

/** What every target of one tab is read with. */
export interface TabRead {
  tabs: TargetSessions;
  toScreen: ToScreen;
  hiddenTab: boolean;
  /** Every cross-process frame of the browser (Target.getTargets), read once per tree. */
  remote: FrameTarget[];
}

/**
 * Where a target's viewport is in its tab's: `box` its place (tab pixels; the tab itself at
 * 0, 0), `clip` what of it shows, `chain` the iframes from the tab down to it.
 */
export interface Placement {
  box: Rect;
  clip: Rect;
  chain: FrameLink[];
}

/** A target's document node (a tab's, or a cross-site frame's), or null when it has none. */
export async function readTarget(
  r: TabRead,
  targetId: string,
  sessionId: string,
  place: Placement,
): Promise<SourceNode<ChromiumHandle> | null> {
  const cdp = r.tabs.cdp;
  const [tree, snap, main] = await Promise.all([
    cdp<{ frameTree: FrameTree }>('Page.getFrameTree', {}, sessionId),
    cdp<Snapshot>('DOMSnapshot.captureSnapshot', { computedStyles: [] }, sessionId),
    cdp<{ nodes: AXNode[] }>('Accessibility.getFullAXTree', {}, sessionId),
  ]);
  const ids = frameIds(tree.frameTree);
  const owners = frameOwners(snap);
  const frames = await Promise.all(
    ids.slice(1).map(async (frameId) => {
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
  const own = pageLayout(snap, { width: place.box[2], height: place.box[3] }, boxes);
  // A tab's own document is already in its viewport; a cross-site frame's is moved there.
  const layout = place.chain.length === 0 ? own : placeFrameLayout(own, place.box, place.clip);
  const remote = await remoteDocuments(r, targetId, sessionId, new Set(ids), place);
  const build = new TreeBuilder(r, targetId, layout, roots, remote, place.chain);
  return build.root(main.nodes);
}

/** The documents of the cross-site frames whose iframe is in this target, by iframe node. */
async function remoteDocuments(
  r: TabRead,
  targetId: string,
  sessionId: string,
  frames: Set<string>,
  place: Placement,
): Promise<Map<number, SourceNode<ChromiumHandle>>> {
  const found = await Promise.all(
    r.remote
      .filter((f) => frames.has(f.parentFrameId))
      .map(async (f) => {
        try {
          const { owner, box } = await frameOwnerBox(r.tabs.cdp, sessionId, f.targetId);
          const at: Rect = [box[0] + place.box[0], box[1] + place.box[1], box[2], box[3]];
          const doc = await readTarget(r, f.targetId, await r.tabs.session(f.targetId), {
            box: at,
            clip: intersect(at, place.clip),
            chain: [...place.chain, { parentTargetId: targetId, frameTargetId: f.targetId }],
          });
          return doc ? ([owner, doc] as const) : null;
        } catch {
          // The frame went away while the tree was read: it is left out.
          return null;
        }
      }),
  );
  return new Map(found.filter((f) => f !== null));
}

class TreeBuilder {
  constructor(
    private readonly r: TabRead,
    private readonly targetId: string,
    private readonly layout: PageLayout,
    private readonly frames: Map<number, AXNode[]>,
    private readonly remote: Map<number, SourceNode<ChromiumHandle>>,
    private readonly chain: FrameLink[],
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
    const hiddenTab = this.r.hiddenTab;
    const hidden = hiddenTab || c.states.includes('hidden') || (placed ? !placed.visible : false);
    const name = c.name || parentName;
    const children: SourceNode<ChromiumHandle>[] = [];
    for (const cid of n.childIds ?? []) {
      const child = byId.get(cid);
      const made = child && this.node(child, byId, name);
      if (made) children.push(made);
    }
    const frame = id === null ? undefined : this.frames.get(id);
    const doc = frame && this.root(frame);
    if (doc) children.push(doc);
    const remote = id === null ? undefined : this.remote.get(id);
    if (remote) children.push(remote);
    return {
      role: c.role,
      name: c.name,
      states: hidden && !hiddenTab ? [...c.states, 'offscreen'] : c.states,
      bounds: placed ? this.r.toScreen(placed.rect) : null,
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
        ...(this.chain.length > 0 ? { chain: this.chain } : {}),
      },
    };
  }
}
