import { z } from 'zod';
import {
  MESSAGE_MAX,
  promptText,
  sessionProvider,
  sessionRepos,
  sessionTitle,
} from './session-fields';
import { defineTool } from '../kit/define-tool';

export const sessionCreateInput = {
  first_prompt: promptText('first_prompt'),
  title: sessionTitle('title').optional(),
  provider: sessionProvider('provider').optional(),
  repos: sessionRepos('repos').default([]),
} satisfies z.ZodRawShape;

export const sessionCreateTool = defineTool({
  name: 'session_create',
  title: 'Create a session',
  description: [
    'Start a new session whose first prompt is first_prompt (1–' + MESSAGE_MAX + ' characters); it',
    'is marked as created by this session (child of …). The new agent shares nothing with you but',
    'that text, so make it the whole task, self-contained. title (optional, one line; default: the',
    "prompt's first line), provider (claude-code | opencode | scripted; default: the Global",
    "default) and repos (names of Global settings' repositories, default []: each is cloned into",
    "/workspace/<name> on the new session's own branch sessionboxer/<short id>; an unknown name",
    'is refused). It takes the Global defaults (environment, model, policy). Returns { pending: false,',
    'sessionId, title, url }, or when a person must allow it { pending: true, id, summary,',
    'expiresAt, hint }: then call approval_wait with id. Refused when you already have 3 alive',
    'sessions you created (session_stop one), or the global cap is reached. Needs All Sessions.',
    'Marker: "created Session …".',
  ].join(' '),
  input: sessionCreateInput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  route: 'control-plane',
});
