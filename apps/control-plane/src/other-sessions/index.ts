export { OtherSessionsModule } from './other-sessions.module';
export { Approvals } from './approvals.service';
export { ChildSessions, titleFrom } from './child-sessions.service';
export { sessionLimits } from './session-limits';
export { resolveSession } from './session-refs';
export { APPROVAL_EXPIRY_PREFIX, approvalExpiryJobId } from './approval-expiry';
