import type { AnyProjection } from './projection';
import { sshEndpointsProjection } from './ssh-endpoints.projection';
import { sshKeysProjection } from './ssh-keys.projection';
import { sshTerminalsProjection } from './ssh-terminals.projection';
import { limitsProjection } from './limits.projection';
import { approvalsProjection } from './approvals.projection';
import { conversationEventsProjection } from './conversation-events.projection';
import { conversationsProjection } from './conversations.projection';
import { notificationsProjection } from './notifications.projection';
import { pullRequestsProjection } from './pull-requests.projection';
import { recordingsProjection } from './recordings.projection';
import { sessionDetailsProjection } from './session-details.projection';
import { sessionPoliciesProjection } from './session-policies.projection';
import { sidebarTreeProjection } from './sidebar-tree.projection';
import { repositoriesProjection } from './repositories.projection';
import { egressHostsProjection } from './egress-hosts.projection';
import { schedulesProjection } from './schedules.projection';
import { snapshotsProjection } from './snapshots.projection';
import { transcriptMarkersProjection } from './transcript-markers.projection';
import { verificationsProjection } from './verifications.projection';
import { apiKeysProjection } from './api-keys.projection';
import { sandboxesProjection } from './sandboxes.projection';
import { timelineProjection } from './timeline.projection';
import { turnSnapshotsProjection } from './turn-snapshots.projection';
import { inboxProjection } from './inbox.projection';
import { searchProjection } from './search.projection';

/** Every read model of this lib, for the runner and for rebuild. */
export const allProjections: readonly AnyProjection[] = [
  sidebarTreeProjection,
  transcriptMarkersProjection,
  sessionDetailsProjection,
  snapshotsProjection,
  pullRequestsProjection,
  notificationsProjection,
  recordingsProjection,
  sessionPoliciesProjection,
  conversationsProjection,
  conversationEventsProjection,
  approvalsProjection,
  limitsProjection,
  verificationsProjection,
  schedulesProjection,
  repositoriesProjection,
  egressHostsProjection,
  apiKeysProjection,
  sandboxesProjection,
  turnSnapshotsProjection,
  timelineProjection,
  sshEndpointsProjection,
  sshKeysProjection,
  sshTerminalsProjection,
  inboxProjection,
  searchProjection,
];
