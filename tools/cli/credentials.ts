import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * What `sessionboxer login` saved: the control plane's URL and the key it approved, in
 * `$SESSIONBOXER_CONFIG_DIR/credentials.json` (default `$XDG_CONFIG_HOME/sessionboxer`, else
 * `~/.config/sessionboxer`), 0600 in a 0700 folder. `sandbox`, `env` and `agent` use it when
 * neither --key nor $SESSIONBOXER_API_KEY gives a key.
 */
export interface SavedCredentials {
  url: string;
  key: string;
  key_id: string;
  org_id: string;
  scopes: string[];
  saved_at: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SESSIONBOXER_CONFIG_DIR) return path.resolve(env.SESSIONBOXER_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'sessionboxer');
}

export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'credentials.json');
}

/** Written whole (a temporary file renamed over it), never readable by anyone else. */
export function saveCredentials(creds: SavedCredentials, env = process.env): string {
  const file = credentialsFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

/** The saved credentials, or null when there are none (or the file is not ours to use). */
export function savedCredentials(env = process.env): SavedCredentials | null {
  const file = credentialsFile(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const creds = JSON.parse(text) as Partial<SavedCredentials>;
    if (typeof creds.key !== 'string' || typeof creds.url !== 'string') return null;
    return creds as SavedCredentials;
  } catch {
    throw new Error(`${file} is not valid JSON: run sessionboxer login again`);
  }
}
