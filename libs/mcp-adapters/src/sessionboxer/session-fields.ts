import { id, int, text } from './fields';

/** The wait tools block at most 20 s per call (the bridge's own bound), 15 by default. */
export const WAIT_MAX = 20;
export const WAIT_DEFAULT = 15;
export const MESSAGE_MAX = 20_000;

/** A session id from sessions_list, or a prefix of 6+ characters naming one session. */
export const sessionRef = () => id('session');
export const timeoutSeconds = () => int('timeout_seconds', 1, WAIT_MAX).default(WAIT_DEFAULT);
export const promptText = (field: string) => text(field, MESSAGE_MAX);
