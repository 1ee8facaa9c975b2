import { defineTool } from '../kit/define-tool';

export const scheduleListInput = {};

/** Every scheduled task on the control plane, whoever created it. */
export const scheduleListTool = defineTool({
  name: 'schedule_list',
  title: 'List the scheduled tasks',
  description: [
    'No parameters. Returns every scheduled task on the Control Plane, oldest first: [{ id, name,',
    'cron, timezone, enabled, action, nextRunAt, lastRunAt }], action being { type: "prompt",',
    'sessionId, text } or { type: "new_session", title, provider, repos, prompt, stopAfter },',
    'nextRunAt null while disabled, lastRunAt the time of the latest run (null: never ran).',
  ].join(' '),
  input: scheduleListInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
