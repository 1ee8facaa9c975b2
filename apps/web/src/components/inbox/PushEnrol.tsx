import { useState } from 'react';
import { api } from '../../api';

/** Enrols this browser for Web Push of inbox items (asked from a click, never on load). */
async function enrol(): Promise<string> {
  const registration = await navigator.serviceWorker.register('/push-sw.js');
  const { publicKey } = await api<{ publicKey: string }>('GET', '/api/push/public-key');
  const key = Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
    c.charCodeAt(0),
  );
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  await api('POST', '/api/push/subscriptions', subscription.toJSON());
  return 'This device gets push notifications.';
}

export function PushEnrol() {
  const [status, setStatus] = useState<string | null>(null);
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  if (typeof window.PushManager === 'undefined') return null;
  return (
    <>
      <button
        type="button"
        onClick={() =>
          void enrol()
            .then(setStatus)
            .catch((e: Error) => setStatus(`Could not enrol this device: ${e.message}`))
        }
      >
        Push to this device
      </button>
      {status && <p role="status">{status}</p>}
    </>
  );
}
