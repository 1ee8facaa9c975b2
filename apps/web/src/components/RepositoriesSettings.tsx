import { useEffect, useState, type FormEvent } from 'react';
import {
  BRANCH_NAME_MAX_LENGTH,
  CLONE_URL_MAX_LENGTH,
  REPO_NAME_MAX_LENGTH,
} from '@sessionboxer/domain/limits';
import type { RepositoryView } from '@sessionboxer/contracts';
import { del, errorText, get, post } from '../api';
import { useAction } from '../hooks';
import { ErrorAlert } from './FormParts';

const ROUTE = '/api/settings/repositories';

/** Global settings → Repositories: what a new session can have cloned into its workspace. */
export function RepositoriesSettings() {
  const [repos, setRepos] = useState<RepositoryView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [cloneUrl, setCloneUrl] = useState('');
  const [defaultBranch, setDefaultBranch] = useState('main');
  const { busy, error, run } = useAction();
  const reload = () => get<RepositoryView[]>(ROUTE).then(setRepos);
  useEffect(() => {
    reload().catch((e: unknown) => setLoadError(errorText(e)));
  }, []);
  const add = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await post(ROUTE, { name: name.trim(), cloneUrl: cloneUrl.trim(), defaultBranch });
      setName('');
      setCloneUrl('');
      await reload();
    });
  };
  const remove = (repo: string) =>
    void run(async () => {
      await del(`${ROUTE}/${encodeURIComponent(repo)}`);
      await reload();
    });
  return (
    <section className="card" id="repositories" aria-labelledby="repositories-settings">
      <h2 id="repositories-settings">Repositories</h2>
      <p className="muted">
        A session can start on these: each is cloned into <code>/workspace/&lt;name&gt;</code> on
        the session&apos;s own branch. Pushes go through Sessionboxer, which adds the GitHub token;
        the box never holds it.
      </p>
      <ErrorAlert error={loadError} />
      {repos && repos.length === 0 && <p className="muted">No repositories yet.</p>}
      {repos && repos.length > 0 && (
        <ul aria-label="Repositories" className="plain">
          {repos.map((r) => (
            <li key={r.name} className="row">
              <strong>{r.name}</strong>
              <code>{r.cloneUrl}</code>
              <span className="muted">{r.defaultBranch}</span>
              <button
                type="button"
                disabled={busy}
                aria-label={`Remove ${r.name}`}
                onClick={() => remove(r.name)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} aria-label="Add a repository">
        <div className="field">
          <label htmlFor="repo-name">Name</label>
          <input
            id="repo-name"
            value={name}
            required
            maxLength={REPO_NAME_MAX_LENGTH}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="repo-url">Clone URL</label>
          <input
            id="repo-url"
            type="url"
            value={cloneUrl}
            required
            maxLength={CLONE_URL_MAX_LENGTH}
            placeholder="https://github.com/owner/repo.git"
            onChange={(e) => setCloneUrl(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="repo-branch">Default branch</label>
          <input
            id="repo-branch"
            value={defaultBranch}
            required
            maxLength={BRANCH_NAME_MAX_LENGTH}
            onChange={(e) => setDefaultBranch(e.target.value)}
          />
        </div>
        <button type="submit" disabled={busy}>
          Add repository
        </button>
        <ErrorAlert error={error} />
      </form>
    </section>
  );
}
