/** `GET /api/settings/repositories`: one repository of Global settings. */
export interface RepositoryView {
  name: string;
  cloneUrl: string;
  defaultBranch: string;
  createdAt: string;
  updatedAt: string;
}

export type DiffFileStatus = 'added' | 'modified' | 'deleted' | 'renamed';

/** One file of a session's diff against its base branch. */
export interface DiffFile {
  path: string;
  /** The path it had before, for a rename; null otherwise. */
  oldPath: string | null;
  status: DiffFileStatus;
  /** Lines; null for a binary file. */
  additions: number | null;
  deletions: number | null;
  /** The unified diff of this file, cut at `patchCap` characters (then `patchTruncated`). */
  patch: string;
  patchTruncated: boolean;
}

/** One repository's part of the diff: its branch against the base, uncommitted work included. */
export interface RepoDiff {
  repo: string;
  branch: string | null;
  /** The branch it is compared with (the repository's default branch, as cloned). */
  base: string;
  files: DiffFile[];
  /** Why this repository has no diff (its folder is gone, git failed); null when it has one. */
  error: string | null;
}

/** `GET /api/sessions/:id/diff`. */
export interface SessionDiff {
  sessionId: string;
  repos: RepoDiff[];
  patchCap: number;
}
