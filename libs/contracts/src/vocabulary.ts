// The domain's words that appear on the wire, re-exported so the web UI names them from the
// contracts alone: libs/domain stays their one definition, and nothing of it runs in a browser.
export type {
  Actor,
  AgentToolsPolicy,
  ApprovalStatus,
  CredentialName,
  NotificationSource,
  PublicSettings,
  RecordingCaption,
  ScheduleAction,
  SessionCreationPolicy,
  SessionEnvironment,
  SessionPane,
  SessionStatus,
} from '@sessionboxer/domain';
