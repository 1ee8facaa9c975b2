import type { AnyProjection } from './projection';
import { sidebarTreeProjection } from './sidebar-tree.projection';
import { transcriptMarkersProjection } from './transcript-markers.projection';

/** Every read model of this lib, for the runner and for rebuild. */
export const allProjections: readonly AnyProjection[] = [
  sidebarTreeProjection,
  transcriptMarkersProjection,
];
