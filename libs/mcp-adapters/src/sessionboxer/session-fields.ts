import { z } from 'zod';
import {
  HARNESS_NAMES,
  REPO_NAME_MAX_LENGTH,
  REPO_NAME_PATTERN,
  SESSION_REPOS_MAX,
  TITLE_MAX_LENGTH,
} from '@sessionboxer/domain';
import { id, int, line, oneOf, text } from '../kit/fields';

/** The wait tools block at most 20 s per call (the bridge's own bound), 15 by default. */
export const WAIT_MAX = 20;
export const WAIT_DEFAULT = 15;
/** What one agent may send another (session_message, first_prompt, a schedule's prompt). */
export const MESSAGE_MAX = 20_000;

/** A session id from sessions_list, or a prefix of 6+ characters naming one session. */
export const sessionRef = () => id('session');
export const timeoutSeconds = () => int('timeout_seconds', 1, WAIT_MAX).default(WAIT_DEFAULT);
export const promptText = (field: string) => text(field, MESSAGE_MAX);
/** A session's title, on one line, within the domain's limit (the decider checks the same). */
export const sessionTitle = (field: string) => line(field, TITLE_MAX_LENGTH);
/** A session's provider: one of the domain's harnesses, the one list every edge offers. */
export const sessionProvider = (field: string) => oneOf(field, HARNESS_NAMES);

/** Names of Global settings' repositories for a new session (the domain's rule and limit). */
export const sessionRepos = (field: string) =>
  z
    .array(
      z
        .string()
        .regex(
          REPO_NAME_PATTERN,
          `${field}[]: a repository name (1–${REPO_NAME_MAX_LENGTH} letters, digits, "_", "." or "-")`,
        ),
    )
    .max(SESSION_REPOS_MAX, `${field}: at most ${SESSION_REPOS_MAX}`);
