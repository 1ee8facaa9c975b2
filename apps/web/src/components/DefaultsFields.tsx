import { ENVIRONMENT_IDS, environmentName } from '../format';
import type { PublicSettings, SessionEnvironment } from '@sessionboxer/contracts';
import { EnvironmentSelect, ProviderSelect } from './SessionFields';
import { MODEL_NAME_MAX_LENGTH } from '@sessionboxer/domain/limits';

type Defaults = PublicSettings['defaults'];

interface Props {
  defaults: Defaults;
  onChange: (defaults: Defaults) => void;
  /** The environments this control plane accepts (its settings' `environments`). */
  environments: SessionEnvironment[];
}

/** Why the environments left out are: the server refuses a default it does not run. */
function EnvironmentsHelp({ offered }: { offered: SessionEnvironment[] }) {
  const missing = ENVIRONMENT_IDS.filter((e) => !offered.includes(e));
  if (missing.length === 0) return null;
  const names = missing.map(environmentName).join(' and ');
  return (
    <p id="default-environment-help" className="muted">
      {names} {missing.length === 1 ? 'is' : 'are'} not available on this control plane: only the
      environments it runs are offered.
    </p>
  );
}

/** Global settings' "Defaults for new sessions": provider, model and environment. */
export function DefaultsFields({ defaults, onChange, environments }: Props) {
  const current = defaults.environment ?? 'docker-linux';
  // The saved default stays shown even if the list no longer has it (the server says why).
  const offered = environments.includes(current) ? environments : [current, ...environments];
  return (
    <>
      <h3>Defaults for new sessions</h3>
      <div className="field">
        <label htmlFor="default-provider">Default provider</label>
        <ProviderSelect
          id="default-provider"
          value={defaults.provider ?? ''}
          onChange={(provider) => onChange({ ...defaults, provider })}
        />
      </div>
      <div className="field">
        <label htmlFor="default-model">Default model</label>
        <input
          id="default-model"
          value={defaults.model ?? ''}
          maxLength={MODEL_NAME_MAX_LENGTH}
          required
          onChange={(e) => onChange({ ...defaults, model: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="default-environment">Default environment</label>
        <EnvironmentSelect
          id="default-environment"
          value={current}
          options={offered}
          describedBy={
            offered.length < ENVIRONMENT_IDS.length ? 'default-environment-help' : undefined
          }
          onChange={(environment) => onChange({ ...defaults, environment })}
        />
        <EnvironmentsHelp offered={environments} />
      </div>
    </>
  );
}
