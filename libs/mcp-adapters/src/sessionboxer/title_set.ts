import { TITLE_MAX_LENGTH } from '@sessionboxer/domain';
import { line } from '../kit/fields';
import { defineTool } from '../kit/define-tool';

/** The session title's one limit (the domain's). */
export const TITLE_MAX = TITLE_MAX_LENGTH;

export const titleSetInput = { title: line('title', TITLE_MAX) };

/** Renames the calling session. */
export const titleSetTool = defineTool({
  name: 'title_set',
  title: 'Rename this session',
  description: [
    `Rename this session: title is the new name, 1–${TITLE_MAX} characters on one line`,
    '(trimmed). The sidebar and every browser show it at once, and the transcript gets the',
    'marker "renamed the Session to …". Renaming to the current title changes nothing.',
    'Returns { id, title }.',
  ].join(' '),
  input: titleSetInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
