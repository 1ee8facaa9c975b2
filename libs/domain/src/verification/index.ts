export * from './verification.commands';
export * from './verification.events';
export * from './verification.state';
export * from './verification.decider';
export * from './current-run';
export {
  BRIEF_MAX,
  CASE_TITLE_MAX,
  CASES_MAX,
  NOTE_MAX,
  SKIP_REASON_MAX,
  SUMMARY_MAX,
} from './verification.validation';
