import { useStore } from '../store';

/** `/`: what to do first. */
export function Home() {
  const count = useStore((s) => s.sidebar?.length ?? 0);
  return (
    <>
      <h1>Sessionboxer</h1>
      <p>
        {count === 0
          ? 'No sessions yet. Use “New session” in the sidebar to start one.'
          : 'Pick a session in the sidebar, or start a new one.'}
      </p>
    </>
  );
}
