import { useEffect, useState } from 'react';
import type { RepositoryView } from '@sessionboxer/contracts';
import { get } from '../api';

/** The new-session form's repositories: a checkbox per repository of Global settings. */
export function RepoPicker({
  value,
  onChange,
}: {
  value: string[];
  onChange: (repos: string[]) => void;
}) {
  const [repos, setRepos] = useState<RepositoryView[]>([]);
  useEffect(() => {
    let live = true;
    get<RepositoryView[]>('/api/settings/repositories')
      .then((list) => live && setRepos(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (repos.length === 0) return null;
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((n) => n !== name));
  return (
    <fieldset className="repo-picker">
      <legend>Repositories</legend>
      {repos.map((r) => (
        <label key={r.name} className="row">
          <input
            type="checkbox"
            checked={value.includes(r.name)}
            onChange={(e) => toggle(r.name, e.target.checked)}
          />
          {r.name}
        </label>
      ))}
    </fieldset>
  );
}
