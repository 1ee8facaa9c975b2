import { useState, type FormEvent } from 'react';
import { EMAIL_PATTERN } from '@sessionboxer/domain/limits';
import { patch } from '../../api';
import { useSave } from '../../hooks';
import type { SettingsView } from '@sessionboxer/contracts';
import { ErrorAlert, SaveRow } from '../FormParts';

interface Props {
  view: SettingsView;
  onSaved: (view: SettingsView) => void;
}

/** The server's rules for an identity (settings validation), checked before anything is sent. */
function identityProblem(name: string, email: string): string | null {
  if (name.trim() === '') return 'Name must not be empty.';
  if ([...name.trim()].length > 100) return 'Name must be at most 100 characters.';
  if (!EMAIL_PATTERN.test(email.trim()))
    return `${email.trim() || 'An empty email'} is not an email address.`;
  return null;
}

/**
 * Settings → Git identity: the name and email of the commits agents make in their clones.
 * "Use the default" clears it (Sessionboxer agent <agent@sessionboxer.invalid>).
 */
export function GitIdentitySettings({ view, onSaved }: Props) {
  const current = view.settings.gitIdentity;
  const [name, setName] = useState(current?.name ?? '');
  const [email, setEmail] = useState(current?.email ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSave();
  const send = (gitIdentity: { name: string; email: string } | null) =>
    void save.run(async () => onSaved(await patch<SettingsView>('/api/settings', { gitIdentity })));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = identityProblem(name, email);
    setProblem(wrong);
    if (!wrong) send({ name: name.trim(), email: email.trim() });
  };
  const edited = () => {
    save.unsaved();
    setProblem(null);
  };
  return (
    <section className="card" aria-labelledby="git-identity-settings">
      <h2 id="git-identity-settings">Git identity</h2>
      <p className="muted">
        Who the agents&apos; commits are by.{' '}
        {current ? '' : 'Now: the default, Sessionboxer agent <agent@sessionboxer.invalid>.'}
      </p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="git-name">Name</label>
          <input
            id="git-name"
            value={name}
            aria-invalid={problem?.startsWith('Name') ?? false}
            onChange={(e) => {
              setName(e.target.value);
              edited();
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="git-email">Email</label>
          <input
            id="git-email"
            type="email"
            value={email}
            aria-invalid={problem !== null && !problem.startsWith('Name')}
            onChange={(e) => {
              setEmail(e.target.value);
              edited();
            }}
          />
        </div>
        <SaveRow label="Save Git identity" busy={save.busy} status={save.saved ? 'Saved' : ''} />
        {current && (
          <div className="row">
            <button
              type="button"
              disabled={save.busy}
              onClick={() => {
                setName('');
                setEmail('');
                send(null);
              }}
            >
              Use the default identity
            </button>
          </div>
        )}
        <ErrorAlert error={problem ?? save.error} />
      </form>
    </section>
  );
}
