import { Inject, Injectable } from '@nestjs/common';
import type { RepoDiff, SessionDiff } from '@sessionboxer/contracts';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { BOX_DRIVER, READ_MODELS } from '../infrastructure/tokens';
import { requireSession } from '../common/require-session';
import type { BoxDriver } from '../boxes';
import { runInBox } from './box-git';
import { PATCH_MARK, parseDiff } from './diff-parse';
import { Repositories } from './repositories.service';

/** A file's patch in the answer, in characters. */
export const PATCH_CAP = 100_000;

/**
 * Run in the box, in the repository's folder: the branch against the base branch as cloned
 * (`origin/<default>`, from where they forked), uncommitted and untracked work included (added
 * to a throwaway copy of the index in the box's /tmp; the agent's own index is not touched).
 * Constant; the base branch is its argument.
 */
const DIFF = [
  'set -e',
  'base=$(git merge-base HEAD "refs/remotes/origin/$1" 2>/dev/null) ||',
  '  base=$(git rev-parse --verify -q "refs/remotes/origin/$1") ||',
  '  { echo "there is no origin/$1 to compare with" >&2; exit 3; }',
  'idx=$(mktemp -u)',
  'trap \'rm -f "$idx"\' EXIT',
  'own=$(git rev-parse --git-path index)',
  'if [ -f "$own" ]; then cp "$own" "$idx"; fi',
  'export GIT_INDEX_FILE="$idx"',
  'git add -A',
  'd="git -c core.quotepath=off diff --cached --no-color --no-ext-diff --no-textconv -M"',
  '$d --raw --numstat -z "$base"',
  "printf '\\0SESSIONBOXER-PATCH\\0'",
  '$d "$base"',
].join('\n');

/** `GET /api/sessions/:id/diff`: each repository of the session, computed by git in its box. */
@Injectable()
export class SessionDiffs {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(BOX_DRIVER) private readonly driver: BoxDriver,
    private readonly repositories: Repositories,
  ) {}

  async diff(sessionId: string): Promise<SessionDiff> {
    const session = requireSession(this.readModels, sessionId);
    const repos: RepoDiff[] = [];
    for (const name of session.repos) {
      const base = this.repositories
        .ofSession(sessionId)
        .find((r) => r.name === name)?.defaultBranch;
      repos.push(await this.repoDiff(sessionId, name, session.branch, base ?? 'main'));
    }
    return { sessionId, repos, patchCap: PATCH_CAP };
  }

  private async repoDiff(
    sessionId: string,
    name: string,
    branch: string | null,
    base: string,
  ): Promise<RepoDiff> {
    const run = await runInBox(this.driver, sessionId, ['sh', '-c', DIFF, 'sh', base], {
      cwd: `/workspace/${name}`,
      maxBytes: 32 << 20,
    });
    const answer = { repo: name, branch, base, files: [], error: null };
    if (run.truncated) return { ...answer, error: 'the diff is larger than 32 MiB' };
    if (run.code !== 0) {
      const why = run.stderr.trim().split('\n').slice(-2).join(' ') || `git exited ${run.code}`;
      return { ...answer, error: why };
    }
    if (!run.stdout.includes(PATCH_MARK)) return { ...answer, error: 'git gave no diff' };
    return { ...answer, files: parseDiff(run.stdout, PATCH_CAP) };
  }
}
