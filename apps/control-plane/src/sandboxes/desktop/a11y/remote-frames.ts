import type { Cdp } from './box-cdp';
import { quadRect, type PageLayout, type Rect } from './page-layout';

/**
 * Frames of another site: with site isolation Chromium renders a cross-site iframe in another
 * process, as a DevTools target of its own (type `iframe`), absent from its parent's frame
 * tree, snapshot and accessibility tree (the parent has only the `Iframe` node). Each is read
 * through its own session and placed at its iframe element's content box, found in the parent
 * target with DOM.getFrameOwner. Coordinates here are the tab's viewport CSS pixels.
 */

/** A cross-process frame: its target, and the frame of the parent target it sits in. */
export interface FrameTarget {
  targetId: string;
  parentFrameId: string;
}

/** One step from a tab down to a frame's target: the iframe `frameTargetId` in `parentTargetId`. */
export interface FrameLink {
  parentTargetId: string;
  frameTargetId: string;
}

/** The iframe element of `frameTargetId` in its parent's session, and its content box there. */
export async function frameOwnerBox(
  cdp: Cdp,
  parentSessionId: string,
  frameTargetId: string,
): Promise<{ owner: number; box: Rect }> {
  const { backendNodeId } = await cdp<{ backendNodeId: number }>(
    'DOM.getFrameOwner',
    { frameId: frameTargetId },
    parentSessionId,
  );
  const { model } = await cdp<{ model: { content: number[] } }>(
    'DOM.getBoxModel',
    { backendNodeId },
    parentSessionId,
  );
  return { owner: backendNodeId, box: quadRect(model.content) };
}

function intersects(a: Rect, b: Rect): boolean {
  return (
    Math.min(a[0] + a[2], b[0] + b[2]) > Math.max(a[0], b[0]) &&
    Math.min(a[1] + a[3], b[1] + b[3]) > Math.max(a[1], b[1])
  );
}

/**
 * A frame's layout, made in its own viewport, moved to the tab's: by the iframe's content box
 * (`box`, tab pixels) and seen only where that box shows (`clip`, tab pixels).
 */
export function placeFrameLayout(layout: PageLayout, box: Rect, clip: Rect): PageLayout {
  const nodes = new Map<number, { rect: Rect; visible: boolean }>();
  for (const [id, p] of layout.nodes) {
    const rect: Rect = [p.rect[0] + box[0], p.rect[1] + box[1], p.rect[2], p.rect[3]];
    nodes.set(id, { rect, visible: p.visible && intersects(rect, clip) });
  }
  return { nodes };
}

/**
 * Where the viewport of the frame at the end of `chain` is in its tab's viewport: the sum of
 * each iframe's content box, as it is now (the page may have scrolled since the tree was read).
 */
export async function frameOffset(
  session: (targetId: string) => Promise<string>,
  cdp: Cdp,
  chain: readonly FrameLink[],
): Promise<{ x: number; y: number }> {
  let x = 0;
  let y = 0;
  for (const link of chain) {
    const parent = await session(link.parentTargetId);
    const { box } = await frameOwnerBox(cdp, parent, link.frameTargetId);
    x += box[0];
    y += box[1];
  }
  return { x, y };
}

/** Scrolls each iframe of `chain` into view in its parent, outermost first. */
export async function scrollFramesIntoView(
  session: (targetId: string) => Promise<string>,
  cdp: Cdp,
  chain: readonly FrameLink[],
): Promise<void> {
  for (const link of chain) {
    const parent = await session(link.parentTargetId);
    const { backendNodeId } = await cdp<{ backendNodeId: number }>(
      'DOM.getFrameOwner',
      { frameId: link.frameTargetId },
      parent,
    );
    await cdp('DOM.scrollIntoViewIfNeeded', { backendNodeId }, parent).catch(() => undefined);
  }
}
