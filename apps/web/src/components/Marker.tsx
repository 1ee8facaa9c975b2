import type { MouseEvent } from 'react';
import { actorName, safeUrl } from '../format';
import type { TranscriptMarker } from '@sessionboxer/contracts';
import type { PaneFocus, PaneName } from '../view-types';
import { Link, sessionPath } from '../router';
import { openPane } from '../view-state';

interface Props {
  marker: TranscriptMarker;
  titleOf: (sessionId: string) => string | null;
}

/** A link that opens one of the session's panes on what the marker names. */
function PaneLink({
  marker,
  pane,
  focus,
}: {
  marker: TranscriptMarker;
  pane: PaneName;
  focus: PaneFocus;
}) {
  const onClick = (e: MouseEvent) => {
    e.preventDefault();
    openPane(marker.sessionId, pane, focus);
  };
  return (
    <a href={`${sessionPath(marker.sessionId)}#${pane}`} onClick={onClick}>
      {marker.text}
    </a>
  );
}

/** The marker's text, as a link to what it names: a PR, a session, or a pane's item. */
function MarkerText({ marker }: { marker: TranscriptMarker }) {
  const link = marker.link;
  if (link === null) return <span>{marker.text}</span>;
  if ('url' in link) {
    const href = safeUrl(link.url);
    if (href === null) return <span>{marker.text}</span>;
    return (
      <a href={href} target="_blank" rel="noreferrer">
        {marker.text}
      </a>
    );
  }
  if ('sessionId' in link) return <Link to={sessionPath(link.sessionId)}>{marker.text}</Link>;
  if ('snapshotId' in link)
    return <PaneLink marker={marker} pane="snapshots" focus={{ snapshotId: link.snapshotId }} />;
  if ('terminalId' in link)
    return <PaneLink marker={marker} pane="terminals" focus={{ terminalId: link.terminalId }} />;
  if ('recording' in link)
    return <PaneLink marker={marker} pane="recordings" focus={{ recording: link.recording }} />;
  if ('verificationRunId' in link)
    return <PaneLink marker={marker} pane="autoqa" focus={{ runId: link.verificationRunId }} />;
  if ('scheduleId' in link) return <Link to="/settings#scheduled-tasks">{marker.text}</Link>;
  if ('sshTerminalId' in link) return <Link to="/terminals">{marker.text}</Link>;
  return <span>{marker.text}</span>;
}

/** A small line where an action happened: who did it, and what (linking to it). */
export function Marker({ marker, titleOf }: Props) {
  const who =
    marker.actor.kind === 'agent' && marker.actor.sessionId === marker.sessionId
      ? 'Agent'
      : actorName(marker.actor, titleOf);
  return (
    <p className={`marker marker-${marker.kind}`}>
      <span className="marker-who">{who}</span> <MarkerText marker={marker} />{' '}
      <time className="marker-time" dateTime={marker.at}>
        {new Date(marker.at).toLocaleTimeString()}
      </time>
    </p>
  );
}
