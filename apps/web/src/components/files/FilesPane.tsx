import { useCallback, useEffect, useState } from 'react';
import type { BoxDirEntry, BoxDirListing } from '@sessionboxer/contracts';
import { errorText, get } from '../../api';
import { bytes } from '../../format';
import { FilePreview } from './FilePreview';

const ROOT = '/workspace';

/** The folder's path as buttons, each opening that folder. */
function Crumbs({ path, onOpen }: { path: string; onOpen: (path: string) => void }) {
  const names = path === ROOT ? [] : path.slice(ROOT.length + 1).split('/');
  const crumbs = [{ label: 'workspace', to: ROOT }];
  names.forEach((name, i) =>
    crumbs.push({ label: name, to: `${ROOT}/${names.slice(0, i + 1).join('/')}` }),
  );
  return (
    <nav aria-label="Folder path" className="row crumbs">
      {crumbs.map((c, i) =>
        i === crumbs.length - 1 ? (
          <span key={c.to} aria-current="location">
            {c.label}
          </span>
        ) : (
          <span key={c.to}>
            <button type="button" className="link-button" onClick={() => onOpen(c.to)}>
              {c.label}
            </button>{' '}
            /
          </span>
        ),
      )}
    </nav>
  );
}

function EntryRow({ entry, onOpen }: { entry: BoxDirEntry; onOpen: () => void }) {
  if (entry.kind === 'dir' || entry.kind === 'file')
    return (
      <li>
        <button type="button" className="link-button" onClick={onOpen}>
          {entry.kind === 'dir' ? `${entry.name}/` : entry.name}
        </button>{' '}
        {entry.size !== null && <span className="muted">{bytes(entry.size)}</span>}
      </li>
    );
  return (
    <li>
      {entry.name}{' '}
      <span className="muted">({entry.kind === 'link' ? 'a link' : 'not a file'})</span>
    </li>
  );
}

/**
 * The Files pane: the box's /workspace, folder by folder, and a preview of the file picked.
 * Read-only; "Refresh" reads the folder again (what the agent changed since).
 */
export function FilesPane({ sessionId }: { sessionId: string }) {
  const [path, setPath] = useState(ROOT);
  const [listing, setListing] = useState<BoxDirListing | null>(null);
  const [picked, setPicked] = useState<BoxDirEntry | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    (to: string) => {
      setError(null);
      get<BoxDirListing>(`/api/sessions/${sessionId}/dirs?path=${encodeURIComponent(to)}`)
        .then((l) => {
          setListing(l);
          setPath(l.path);
        })
        .catch((e: unknown) => setError(errorText(e)));
    },
    [sessionId],
  );
  useEffect(() => {
    setPicked(null);
    load(ROOT);
  }, [load]);
  const open = (entry: BoxDirEntry) => {
    if (entry.kind === 'dir') {
      setPicked(null);
      load(`${path}/${entry.name}`);
    } else setPicked(entry);
  };
  return (
    <div className="files-pane">
      <div className="row">
        <Crumbs
          path={path}
          onOpen={(to) => {
            setPicked(null);
            load(to);
          }}
        />
        <button type="button" onClick={() => load(path)}>
          Refresh
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {listing === null && !error && <p className="muted">Loading…</p>}
      {listing && (
        <ul aria-label={`Files in ${listing.path}`} className="file-list">
          {listing.entries.map((entry) => (
            <EntryRow key={entry.name} entry={entry} onOpen={() => open(entry)} />
          ))}
        </ul>
      )}
      {listing?.entries.length === 0 && <p className="muted">This folder is empty.</p>}
      {listing !== null && listing.more > 0 && (
        <p className="muted">And {listing.more} more, not listed.</p>
      )}
      {picked && <FilePreview sessionId={sessionId} folder={path} entry={picked} />}
    </div>
  );
}
