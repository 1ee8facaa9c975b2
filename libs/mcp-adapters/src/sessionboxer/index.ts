/** The sessionboxer MCP server's tools as data, their registry and the guide search. */
export {
  BEST_SECTIONS,
  PATH_SEPARATOR,
  SECTION_TEXT_MAX,
  searchGuide,
  splitGuide,
  type DocsAnswer,
  type GuideSection,
} from './docs-search';
export * from './docs';
export * from './notify';
export * from './pr_attach';
export * from './pr_items';
export * from './pr_list';
export * from './pr_mark_addressed';
export * from './queue_add';
export * from './queue_list';
export * from './registry';
export * from './settings_get';
export * from './snapshot';
export * from './terminal_list';
export * from './terminal_read';
export * from './title_set';
export * from './ui_open';
export * from './verify';
export * from './whoami';
export * from './policy';
export * from './other-sessions.port';
export * from './session-fields';
export * from './sessions_list';
export * from './session_get';
export * from './session_create';
export * from './session_message';
export * from './session_wait';
export * from './session_stop';
export * from './approval_wait';
export * from './schedules.port';
export * from './schedule_create';
export * from './schedule_list';
export * from './session_fork';
