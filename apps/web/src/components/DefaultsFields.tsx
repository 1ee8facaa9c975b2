import { ENVIRONMENT_IDS } from '../format';
import type { PublicSettings } from '@sessionboxer/contracts';
import { EnvironmentSelect, ProviderSelect } from './SessionFields';
import { MODEL_NAME_MAX_LENGTH } from '@sessionboxer/domain/limits';

type Defaults = PublicSettings['defaults'];

interface Props {
  defaults: Defaults;
  onChange: (defaults: Defaults) => void;
}

/** Global settings' "Defaults for new sessions": provider, model and environment. */
export function DefaultsFields({ defaults, onChange }: Props) {
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
          value={defaults.environment ?? 'docker-linux'}
          options={ENVIRONMENT_IDS}
          onChange={(environment) => onChange({ ...defaults, environment })}
        />
      </div>
    </>
  );
}
