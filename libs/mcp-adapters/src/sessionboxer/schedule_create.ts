import {
  SCHEDULE_CRON_MAX_LENGTH,
  SCHEDULE_NAME_MAX,
  SCHEDULE_REPO_MAX_LENGTH,
  SCHEDULE_REPOS_MAX,
} from '@sessionboxer/domain';
import { z } from 'zod';
import { strictObject } from '../kit/strict-input';
import { id, line } from '../kit/fields';
import { MESSAGE_MAX, promptText, sessionProvider, sessionTitle } from './session-fields';
import { defineTool } from '../kit/define-tool';

const promptAction = strictObject({
  type: z.literal('prompt'),
  sessionId: id('action.sessionId').optional(),
  text: promptText('action.text'),
});

const newSessionAction = strictObject({
  type: z.literal('new_session'),
  title: sessionTitle('action.title').optional(),
  provider: sessionProvider('action.provider').optional(),
  repos: z
    .array(line('action.repos[]', SCHEDULE_REPO_MAX_LENGTH))
    .max(SCHEDULE_REPOS_MAX, `action.repos: at most ${SCHEDULE_REPOS_MAX}`)
    .default([]),
  prompt: promptText('action.prompt'),
  stopAfter: z
    .boolean({ invalid_type_error: 'action.stopAfter must be true or false' })
    .default(true),
});

export const scheduleCreateInput = {
  cron: line('cron', SCHEDULE_CRON_MAX_LENGTH),
  timezone: line('timezone', 100).default('UTC'),
  name: line('name', SCHEDULE_NAME_MAX).optional(),
  action: z.discriminatedUnion('type', [promptAction, newSessionAction], {
    errorMap: (issue, ctx) => ({
      message:
        issue.code === 'invalid_union_discriminator'
          ? 'action.type must be prompt or new_session'
          : ctx.defaultError,
    }),
  }),
} satisfies z.ZodRawShape;

export const scheduleCreateTool = defineTool({
  name: 'schedule_create',
  title: 'Create a scheduled task',
  description: [
    'Create a scheduled task, the same as one made on the Scheduled tasks page: on a cron',
    'schedule, prompt a session or start a new one each time. cron: 5 fields (minute hour',
    'day-of-month month day-of-week, e.g. "0 9 * * 1-5") or 6 (seconds first); timezone: an IANA',
    'time zone (default UTC); name (optional, one line; default: from the action). action is',
    `{ type: "prompt", sessionId?, text }: send text (1–${MESSAGE_MAX} characters) to a session at`,
    'each run, sessionId defaulting to this session; or { type: "new_session", title?, provider?,',
    `repos, prompt, stopAfter }: start a session at each run with prompt (1–${MESSAGE_MAX}) as its`,
    'first prompt, repos as in session_create (default []), stopAfter (default true) stopping the',
    'session once its first turn ends. Prompting this session works under This Session only;',
    "another session's (or new sessions) needs All Sessions. Returns { id, name, cron, timezone,",
    'nextRunAt }. The schedule is enabled at once and skips runs missed while Sessionboxer was',
    'down (the skip policy; the person can change it on the Scheduled tasks page). Marker:',
    '"scheduled …". Say in your reply what you scheduled and when it runs next.',
  ].join(' '),
  input: scheduleCreateInput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  route: 'control-plane',
});
