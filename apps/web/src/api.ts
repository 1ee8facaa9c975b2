/** An answer of the control plane that was not a success, with the server's own message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let onUnauthenticated: () => void = () => undefined;

/** What to do when the server answers 401: the app shows the sign-in page. */
export function setUnauthenticatedHandler(handler: () => void): void {
  onUnauthenticated = handler;
}

async function messageOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
    if (Array.isArray(body.message)) return body.message.join('; ');
  } catch {
    // not JSON: the text itself, or the status
  }
  return text.trim() || `${res.status} ${res.statusText}`;
}

export interface RequestOptions {
  /** A 401 is the caller's to handle (the sign-in form), not a signal to show it. */
  quiet401?: boolean;
}

/** A same-origin JSON request; resolves to the parsed body (undefined for 204). */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (!res.ok) {
    const message = await messageOf(res);
    if (res.status === 401 && !options.quiet401) onUnauthenticated();
    throw new ApiError(res.status, message);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, body);
export const del = <T>(path: string) => api<T>('DELETE', path);

/** The URL of a file in a session's box (a recording, its captions, a screenshot). */
export function fileUrl(sessionId: string, path: string): string {
  return `/api/sessions/${sessionId}/files?path=${encodeURIComponent(path)}`;
}

/** The message of whatever was thrown. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
