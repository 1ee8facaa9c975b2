import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import { sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { BOX_DRIVER, READ_MODELS } from '../infrastructure/tokens';
import { BoxWorkspaceHooks, type BoxDriver, type BoxWorkspaceHook } from '../boxes';
import { runInBox } from './box-git';
import { hostGit } from './host-git';
import { Repositories, type SessionRepo } from './repositories.service';

/** Where a box's clone of `name` fetches and pushes: its own edge, which adds the token. */
export function edgeRemote(name: string): string {
  return `${BOX_EDGE.url}${BOX_EDGE.routes.git}/${name}`;
}

/**
 * A fork's copied tree is on its source's branch: the fork takes its own (kept on a restart).
 * Constant; the folder and branch are its arguments. Run in the box, on the box's tree.
 */
const FORK_BRANCH = [
  'cd "$1" || exit 0',
  'git rev-parse --verify -q "refs/heads/$2" >/dev/null && exit 0',
  'git checkout -q -b "$2" && git config "branch.$2.remote" origin &&',
  'git config "branch.$2.merge" "refs/heads/$2"',
].join('\n');

/**
 * Clones each repository of a session into `<workspace>/<name>` on the session's branch when
 * its box is provisioned, on the host, before the box starts (the box has no way out but its
 * edge, and a clone through the edge would need the box up first). The clone goes into an
 * empty folder beside the workspace, which no box ever saw, so host git runs no box config or
 * hook; it is then moved in, and the driver hands it to the box's user with the workspace. A
 * folder already there (a fork's copied tree, a restart) is left as it is.
 */
@Injectable()
export class WorkspaceClones implements BoxWorkspaceHook, OnModuleInit {
  private readonly logger = new Logger('Repositories');

  constructor(
    private readonly hooks: BoxWorkspaceHooks,
    private readonly repositories: Repositories,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(BOX_DRIVER) private readonly driver: BoxDriver,
  ) {}

  onModuleInit(): void {
    this.hooks.register(this);
  }

  async beforeStart(sessionId: string, workspace: string): Promise<void> {
    const repos = this.repositories.ofSession(sessionId);
    if (repos.length === 0) return;
    const token = await this.repositories.token();
    const identity = await this.repositories.gitIdentity();
    for (const repo of repos) {
      const target = path.join(workspace, repo.name);
      if (exists(target)) continue;
      await this.cloneInto(repo, workspace, target, token, identity);
    }
  }

  async afterStart(sessionId: string): Promise<void> {
    const session = sidebarQueries(this.readModels).get(sessionId);
    if (!session?.forkedFrom || !session.branch) return;
    for (const name of session.repos) {
      const run = await runInBox(
        this.driver,
        sessionId,
        ['sh', '-c', FORK_BRANCH, 'sh', `/workspace/${name}`, session.branch],
        { cwd: '/workspace' },
      ).catch((e: unknown) => ({ code: 1, stderr: String(e) }));
      if (run.code !== 0) this.logger.warn(`fork ${sessionId}: branch in ${name}: ${run.stderr}`);
    }
  }

  private async cloneInto(
    repo: SessionRepo,
    workspace: string,
    target: string,
    token: string | null,
    identity: { name: string; email: string },
  ): Promise<void> {
    const staging = path.join(path.dirname(workspace), 'clones', repo.name);
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(staging), { recursive: true, mode: 0o700 });
    try {
      await hostGit(
        [
          'clone',
          '-q',
          '--origin',
          'origin',
          '--branch',
          repo.defaultBranch,
          '--',
          repo.cloneUrl,
          staging,
        ],
        { token },
      );
      const git = (...args: string[]) => hostGit(['-C', staging, ...args]);
      await git('checkout', '-q', '-b', repo.branch);
      for (const [key, value] of [
        ['remote.origin.url', edgeRemote(repo.name)],
        // The edge is on the box's loopback: never through the egress proxy.
        ['remote.origin.proxy', ''],
        [`branch.${repo.branch}.remote`, 'origin'],
        [`branch.${repo.branch}.merge`, `refs/heads/${repo.branch}`],
        ['user.name', identity.name],
        ['user.email', identity.email],
      ]) {
        await git('config', key, value);
      }
      // Owned like the workspace (the box's user once it has run; the driver hands a new one over).
      const owner = fs.statSync(workspace);
      if (owner.uid !== process.getuid?.()) {
        await chown(staging, owner.uid, owner.gid);
      }
      fs.renameSync(staging, target);
    } catch (e) {
      fs.rmSync(staging, { recursive: true, force: true });
      const why = e instanceof Error ? e.message : String(e);
      throw new DomainError(
        ErrorCode.Unavailable,
        `could not clone repository ${repo.name} from ${repo.cloneUrl} (branch ${repo.defaultBranch}): ${why}`,
      );
    }
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** lchown of every entry (links never followed) of a tree this process just made. */
async function chown(dir: string, uid: number, gid: number): Promise<void> {
  const walk = async (p: string): Promise<void> => {
    await fs.promises.lchown(p, uid, gid);
    const stat = await fs.promises.lstat(p);
    if (!stat.isDirectory()) return;
    for (const entry of await fs.promises.readdir(p)) await walk(path.join(p, entry));
  };
  await walk(dir);
}
