import { useCallback, useEffect, useState } from 'react';
import type { DiffFile, RepoDiff, SessionDiff } from '@sessionboxer/contracts';
import { errorText, get } from '../api';

const STATUS_LABEL: Record<DiffFile['status'], string> = {
  added: 'Added',
  modified: 'Modified',
  deleted: 'Deleted',
  renamed: 'Renamed',
};

function FileDiff({ file }: { file: DiffFile }) {
  const counts = file.additions === null ? 'binary' : `+${file.additions} −${file.deletions ?? 0}`;
  return (
    <li className="card diff-file">
      <details>
        <summary>
          <span className={`diff-status ${file.status}`}>{STATUS_LABEL[file.status]}</span>{' '}
          <code>{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</code>{' '}
          <span className="muted">{counts}</span>
        </summary>
        <pre className="patch">{file.patch}</pre>
        {file.patchTruncated && <p className="muted">The patch is cut here.</p>}
      </details>
    </li>
  );
}

function RepoChanges({ repo }: { repo: RepoDiff }) {
  return (
    <section aria-label={`Changes in ${repo.repo}`}>
      <h3>
        {repo.repo}{' '}
        <span className="muted">
          {repo.branch ?? ''} against {repo.base}
        </span>
      </h3>
      {repo.error && (
        <p role="alert" className="error">
          {repo.error}
        </p>
      )}
      {!repo.error && repo.files.length === 0 && <p className="muted">No changes.</p>}
      <ul className="plain" aria-label={`Files changed in ${repo.repo}`}>
        {repo.files.map((f) => (
          <FileDiff key={f.path} file={f} />
        ))}
      </ul>
    </section>
  );
}

/** The Changes pane: the session's diff against its base branch, file by file, on request. */
export function ChangesPane({ sessionId }: { sessionId: string }) {
  const [diff, setDiff] = useState<SessionDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    setBusy(true);
    get<SessionDiff>(`/api/sessions/${sessionId}/diff`)
      .then((d) => {
        setDiff(d);
        setError(null);
      })
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  }, [sessionId]);
  useEffect(load, [load]);
  return (
    <div className="changes">
      <div className="row">
        <button type="button" disabled={busy} onClick={load}>
          Refresh
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {diff && diff.repos.length === 0 && (
        <p className="muted">This session has no repositories.</p>
      )}
      {diff?.repos.map((r) => (
        <RepoChanges key={r.repo} repo={r} />
      ))}
    </div>
  );
}
