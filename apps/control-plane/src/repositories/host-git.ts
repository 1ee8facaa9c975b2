import { execFile } from 'node:child_process';

/** The git relay's and the host clone's one way to send the forge token: HTTP Basic, as GitHub takes it. */
export function forgeAuthorization(token: string): string {
  return `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
}

/**
 * Runs git on the host, only ever on a tree no box has touched (a clone into an empty folder):
 * an argv array, no hooks (`core.hooksPath=/dev/null`), no system or global config, no prompt,
 * only the http(s) protocols, and a clean environment. The token reaches git only through that
 * environment (GIT_CONFIG_COUNT: `http.extraHeader`), never through argv, which `ps` shows.
 */
export function hostGit(
  args: string[],
  options: { cwd?: string; token?: string | null; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nonexistent',
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_PROTOCOL_FROM_USER: '0',
  };
  if (options.token) {
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = 'http.extraHeader';
    env.GIT_CONFIG_VALUE_0 = `Authorization: ${forgeAuthorization(options.token)}`;
  }
  const argv = [
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'protocol.allow=never',
    '-c',
    'protocol.https.allow=always',
    '-c',
    'protocol.http.allow=always',
    ...args,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      argv,
      { cwd: options.cwd, env, timeout: options.timeoutMs ?? 600_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr });
        const masked = options.token ? stderr.split(options.token).join('***') : stderr;
        const why = masked.trim().split('\n').slice(-3).join(' ') || error.message;
        reject(new Error(why));
      },
    );
  });
}
