import { environmentName, PROVIDER_IDS, providerName } from '../format';
import type { SessionEnvironment } from '@sessionboxer/contracts';

interface ProviderSelectProps {
  id: string;
  value: string;
  onChange: (provider: string) => void;
}

/** The providers a session may use; one the list lacks (a default from Settings) comes first. */
export function ProviderSelect({ id, value, onChange }: ProviderSelectProps) {
  const providers = PROVIDER_IDS.includes(value) ? PROVIDER_IDS : [value, ...PROVIDER_IDS];
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {providers.map((p) => (
        <option key={p} value={p}>
          {providerName(p)}
        </option>
      ))}
    </select>
  );
}

interface EnvironmentSelectProps {
  id: string;
  value: SessionEnvironment;
  options: SessionEnvironment[];
  describedBy?: string;
  onChange: (environment: SessionEnvironment) => void;
}

/** The environments a session's box may run in. */
export function EnvironmentSelect(props: EnvironmentSelectProps) {
  const { id, value, options, describedBy, onChange } = props;
  return (
    <select
      id={id}
      value={value}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value as SessionEnvironment)}
    >
      {options.map((env) => (
        <option key={env} value={env}>
          {environmentName(env)}
        </option>
      ))}
    </select>
  );
}
