import type { Logger } from '@nestjs/common';
import {
  desktopViewDecider,
  desktopViewStream,
  type Actor,
  type DesktopViewEndReason,
  type OpenDesktopView,
} from '@sessionboxer/domain';
import type { CommandBus } from '../infrastructure/command-bus';

/**
 * Records a live view opened (DesktopViewOpened on `desktopview-<target>-<id>`), a session's
 * Desktop pane or a sandbox's watch page alike, and returns how to record it closed: once the
 * view ends, with why. A close that cannot be recorded is logged, never thrown (the viewer
 * is gone by then).
 */
export async function recordViewOpened(
  bus: CommandBus,
  logger: Logger,
  view: OpenDesktopView['data'],
  actor: Actor,
): Promise<(reason: DesktopViewEndReason) => Promise<void>> {
  const stream = desktopViewStream(view.target, view.targetId);
  await bus.execute(desktopViewDecider, stream, {
    type: 'OpenDesktopView',
    data: view,
    metadata: bus.metadata(actor),
  });
  return async (reason) => {
    await bus
      .execute(desktopViewDecider, stream, {
        type: 'CloseDesktopView',
        data: { viewId: view.viewId, reason },
        metadata: bus.metadata(actor),
      })
      .catch((e: unknown) => logger.warn(`view ${view.viewId} not recorded closed: ${String(e)}`));
  };
}
