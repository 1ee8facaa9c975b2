import { validPromptText } from '../conversation/conversation.validation';
import {
  bool,
  characters,
  exactId,
  invalid,
  object,
  oneOf,
  onlyKeys,
  text,
} from '../kernel/validation';
import { TITLE_MAX_LENGTH } from '../limits';
import {
  SCHEDULE_CRON_MAX_LENGTH,
  SCHEDULE_REPO_MAX_LENGTH,
  SCHEDULE_REPOS_MAX,
  SCHEDULE_TEXT_MAX,
  type ScheduleAction,
  type ScheduleCreator,
} from './schedule.commands';
import { validProvider } from '../session/session.validation';

/** A prompt of 1–20,000 characters; several lines are fine, as in any prompt. */
export function scheduleText(value: unknown, field: string): string {
  const checked = validPromptText(value, field);
  const length = characters(checked);
  if (length > SCHEDULE_TEXT_MAX) {
    throw invalid(
      field,
      `${field} must be at most ${SCHEDULE_TEXT_MAX} characters (it has ${length})`,
    );
  }
  return checked;
}

function optional<T>(value: unknown, check: (v: unknown) => T): T | null {
  return value === undefined || value === null ? null : check(value);
}

function repos(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid('action.repos', 'action.repos must be a list of names');
  if (value.length > SCHEDULE_REPOS_MAX) {
    throw invalid('action.repos', `action.repos must have at most ${SCHEDULE_REPOS_MAX} items`);
  }
  return value.map((r, i) => text(r, `action.repos[${i}]`, SCHEDULE_REPO_MAX_LENGTH));
}

function provider(value: unknown): string {
  return validProvider(value, 'action.provider');
}

/** The action with its defaults filled in; unknown fields are refused, not dropped. */
export function scheduleAction(value: unknown): ScheduleAction {
  const action = object(value, 'action');
  const type = oneOf(action.type, 'action.type', ['prompt', 'new_session'] as const);
  if (type === 'prompt') {
    onlyKeys(action, 'action', ['type', 'sessionId', 'text']);
    return {
      type,
      sessionId: exactId(action.sessionId, 'action.sessionId'),
      text: scheduleText(action.text, 'action.text'),
    };
  }
  onlyKeys(action, 'action', ['type', 'title', 'provider', 'repos', 'prompt', 'stopAfter']);
  return {
    type,
    title: optional(action.title, (v) => text(v, 'action.title', TITLE_MAX_LENGTH)),
    provider: optional(action.provider, provider),
    repos: repos(action.repos),
    prompt: scheduleText(action.prompt, 'action.prompt'),
    stopAfter: action.stopAfter === undefined ? true : bool(action.stopAfter, 'action.stopAfter'),
  };
}

/** Shape only (one line, 1–200): the app checked the pattern with the jobs' cron rules. */
export function cronShape(value: unknown): string {
  return text(value, 'cron', SCHEDULE_CRON_MAX_LENGTH);
}

export function creator(value: unknown): ScheduleCreator {
  if (value === null) return null;
  const by = object(value, 'createdBy');
  onlyKeys(by, 'createdBy', ['sessionId']);
  return { sessionId: exactId(by.sessionId, 'createdBy.sessionId') };
}
