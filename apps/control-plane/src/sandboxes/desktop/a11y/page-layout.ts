/**
 * Where each DOM node of a tab is, from one DOMSnapshot.captureSnapshot (one call for the whole
 * page and its in-process frames, where DOM.getBoxModel is one call per node), joined to the
 * accessibility tree by backend node id. Pure.
 *
 * A snapshot's bounds are CSS pixels from the top left of the node's own document: a document
 * is placed at its iframe's content box (DOM.getBoxModel of the iframe, in viewport pixels:
 * one call per frame, cheaper than the snapshot's DOM rects for every node), less its own
 * scroll, and is seen only through that box (its clip). Screen pixels are then the viewport's place on the
 * screen (see viewportOrigin) plus CSS pixels times devicePixelRatio.
 */

export type Rect = [number, number, number, number];

interface SnapshotDocument {
  frameId: number;
  scrollOffsetX?: number;
  scrollOffsetY?: number;
  nodes: { backendNodeId?: number[]; contentDocumentIndex?: { index: number[]; value: number[] } };
  layout: { nodeIndex: number[]; bounds: Rect[]; clientRects?: Rect[] };
}

export interface Snapshot {
  documents: SnapshotDocument[];
  strings: string[];
}

export interface Placed {
  /** Viewport CSS pixels. */
  rect: Rect;
  /** Whether any of it shows through its frames' boxes and the viewport. */
  visible: boolean;
}

export interface PageLayout {
  nodes: Map<number, Placed>;
}

/** A frame's id → the backend node id of its iframe element, for the frames in the snapshot. */
export function frameOwners(snap: Snapshot): Map<string, number> {
  const owners = new Map<string, number>();
  for (const d of snap.documents) {
    const ids = d.nodes.backendNodeId ?? [];
    const c = d.nodes.contentDocumentIndex ?? { index: [], value: [] };
    c.index.forEach((ni, k) => {
      const child = snap.documents[c.value[k]];
      if (child) owners.set(snap.strings[child.frameId], ids[ni]);
    });
  }
  return owners;
}

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
}

export function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a[0], b[0]);
  const y = Math.max(a[1], b[1]);
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - x;
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - y;
  return [x, y, Math.max(0, w), Math.max(0, h)];
}

/** `boxes`: each iframe's content box in viewport pixels, by its backend node id. */
export function pageLayout(
  snap: Snapshot,
  viewport: { width: number; height: number },
  boxes: Map<number, Rect> = new Map(),
): PageLayout {
  const nodes = new Map<number, Placed>();
  const docs = snap.documents;
  if (docs.length === 0) return { nodes };
  // Each document's offset in the viewport and its clip, the main one first, then its frames.
  const place: { dx: number; dy: number; clip: Rect }[] = [];
  place[0] = {
    dx: -(docs[0].scrollOffsetX ?? 0),
    dy: -(docs[0].scrollOffsetY ?? 0),
    clip: [0, 0, viewport.width, viewport.height],
  };
  const queue = [0];
  while (queue.length > 0) {
    const di = queue.shift()!;
    const d = docs[di];
    const at = place[di];
    const ids = d.nodes.backendNodeId ?? [];
    const byNode = new Map<number, number>();
    d.layout.nodeIndex.forEach((ni, li) => {
      const b = d.layout.bounds[li];
      const rect: Rect = [b[0] + at.dx, b[1] + at.dy, b[2], b[3]];
      const id = ids[ni];
      const had = nodes.get(id);
      const whole = had ? union(had.rect, rect) : rect;
      const shown = intersect(whole, at.clip);
      nodes.set(id, { rect: whole, visible: shown[2] > 0 && shown[3] > 0 });
      if (!byNode.has(ni)) byNode.set(ni, li);
    });
    const owners = d.nodes.contentDocumentIndex ?? { index: [], value: [] };
    owners.index.forEach((ni, k) => {
      const ci = owners.value[k];
      const child = docs[ci];
      const li = byNode.get(ni);
      if (!child || li === undefined || place[ci]) return;
      const b = d.layout.bounds[li];
      const c = d.layout.clientRects?.[li] ?? [0, 0, b[2], b[3]];
      const box: Rect = boxes.get(ids[ni]) ?? [
        b[0] + at.dx + c[0],
        b[1] + at.dy + c[1],
        c[2],
        c[3],
      ];
      place[ci] = {
        dx: box[0] - (child.scrollOffsetX ?? 0),
        dy: box[1] - (child.scrollOffsetY ?? 0),
        clip: intersect(box, at.clip),
      };
      queue.push(ci);
    });
  }
  return { nodes };
}

/** The rect around a DevTools quad (x1, y1 … x4, y4). */
export function quadRect(q: number[]): Rect {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return [x, y, Math.max(...xs) - x, Math.max(...ys) - y];
}

/** What a page tells of where its viewport is: window.screenX and friends, and its scale. */
export interface WindowMetrics {
  screenX: number;
  screenY: number;
  outerWidth: number;
  outerHeight: number;
  innerWidth: number;
  innerHeight: number;
  devicePixelRatio: number;
  visible: boolean;
}

export const METRICS_EXPRESSION =
  '({screenX, screenY, outerWidth, outerHeight, innerWidth, innerHeight, devicePixelRatio, visible: document.visibilityState === "visible"})';

/**
 * The viewport's top left in screen pixels: the window's place plus its frame, the browser's
 * tabs and toolbar being the outer height's surplus above the viewport (less a bottom border
 * as wide as each side's, (outer - inner width) / 2; none in the box, where no window manager
 * draws one). Checked against a screenshot in sandbox-accessibility.e2e.ts.
 */
export function viewportOrigin(m: WindowMetrics): { x: number; y: number; scale: number } {
  const side = Math.max(0, (m.outerWidth - m.innerWidth) / 2);
  const top = Math.max(0, m.outerHeight - m.innerHeight - side);
  const scale = m.devicePixelRatio || 1;
  return { x: (m.screenX + side) * scale, y: (m.screenY + top) * scale, scale };
}

/** Screen pixels of a rect in viewport CSS pixels, the viewport placed by `viewportOrigin`. */
export function toScreen(
  o: { x: number; y: number; scale: number },
  r: readonly number[],
): [number, number, number, number] {
  return [
    Math.round(o.x + r[0] * o.scale),
    Math.round(o.y + r[1] * o.scale),
    Math.round(r[2] * o.scale),
    Math.round(r[3] * o.scale),
  ];
}
