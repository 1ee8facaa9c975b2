import { useEffect, useState, type FormEvent } from 'react';
import { EGRESS_ALLOW_LIST_MAX } from '@sessionboxer/domain/limits';
import type { EgressPolicyView } from '@sessionboxer/contracts';
import { api, errorText, get } from '../api';
import { useSave } from '../hooks';
import { ErrorAlert, SaveRow } from './FormParts';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** Global settings → Egress: the hosts every box may reach, one `host:port` a line. */
export function EgressSettings() {
  const [policy, setPolicy] = useState<EgressPolicyView | null>(null);
  const [text, setText] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);
  const { busy, error, run, saved } = useSave();
  const show = (p: EgressPolicyView) => {
    setPolicy(p);
    setText(p.allow.join('\n'));
  };
  useEffect(() => {
    get<EgressPolicyView>('/api/settings/egress')
      .then(show)
      .catch((e: unknown) => setLoadError(errorText(e)));
  }, []);
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(async () =>
      show(await api<EgressPolicyView>('PUT', '/api/settings/egress', { allow: lines(text) })),
    );
  };
  return (
    <section className="card" id="egress" aria-labelledby="egress-settings">
      <h2 id="egress-settings">Egress</h2>
      <p className="muted">
        What the boxes may connect to, one <code>host:port</code> a line (<code>*.</code> for every
        name below a domain), at most {EGRESS_ALLOW_LIST_MAX}. Loopback, private, link-local and
        metadata addresses and the control plane itself stay refused whatever this says.
      </p>
      <ErrorAlert error={loadError} />
      {policy && (
        <form onSubmit={save}>
          <div className="field">
            <label htmlFor="egress-allow">Allowed hosts</label>
            <textarea
              id="egress-allow"
              rows={8}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <div className="row">
            <button type="button" onClick={() => setText(policy.defaults.join('\n'))}>
              Use the defaults
            </button>
          </div>
          <SaveRow label="Save egress" busy={busy} status={saved ? 'Saved' : ''} />
          <ErrorAlert error={error} />
        </form>
      )}
    </section>
  );
}
