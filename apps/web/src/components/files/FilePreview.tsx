import { useEffect, useState } from 'react';
import type { BoxDirEntry } from '@sessionboxer/contracts';
import { errorText, fileUrl } from '../../api';

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
const VIDEO = /\.(mp4|webm)$/i;
/** Shown as text up to this size; a bigger file is offered as a link. */
const TEXT_MAX = 512 * 1024;

interface Props {
  sessionId: string;
  folder: string;
  entry: BoxDirEntry;
}

/** A text file's content, or why it is not shown (binary, too big, unreadable). */
function TextPreview({ url, size }: { url: string; size: number | null }) {
  const [text, setText] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (size !== null && size > TEXT_MAX) {
      setNote(`Too big to show here (${size} bytes): open it instead.`);
      return;
    }
    const abort = new AbortController();
    fetch(url, { credentials: 'same-origin', signal: abort.signal })
      .then(async (r) => {
        if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
        const bytes = new Uint8Array(await r.arrayBuffer());
        if (bytes.includes(0)) setNote('A binary file: open it instead.');
        else setText(new TextDecoder().decode(bytes));
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setNote(`Could not read it: ${errorText(e)}`);
      });
    return () => abort.abort();
  }, [url, size]);
  if (note) return <p className="muted">{note}</p>;
  if (text === null) return <p className="muted">Loading…</p>;
  return <pre className="file-text">{text}</pre>;
}

/** What a file holds: an image, a video, text, or a link to open it (a page opens sandboxed). */
export function FilePreview({ sessionId, folder, entry }: Props) {
  const path = `${folder}/${entry.name}`;
  const url = fileUrl(sessionId, path);
  let body;
  if (IMAGE.test(entry.name)) body = <img className="file-image" src={url} alt={path} />;
  else if (VIDEO.test(entry.name))
    body = <video className="video" src={url} controls aria-label={path} />;
  else body = <TextPreview url={url} size={entry.size} />;
  return (
    <section className="file-preview" aria-label={`Preview of ${entry.name}`}>
      <h3>
        <code>{path}</code>{' '}
        <a href={url} target="_blank" rel="noopener noreferrer">
          Open
        </a>
      </h3>
      {body}
    </section>
  );
}
