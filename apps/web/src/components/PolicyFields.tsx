import type { AgentToolsPolicy, SessionCreationPolicy } from '@sessionboxer/contracts';

export const AGENT_TOOLS_LABELS: Record<AgentToolsPolicy, string> = {
  off: 'Off',
  session: 'This session only',
  all: 'All sessions',
};

export const SESSION_CREATION_LABELS: Record<SessionCreationPolicy, string> = {
  ask: 'Ask me',
  dont_ask: 'Do not ask',
};

interface FieldProps<T extends string> {
  id: string;
  value: T | '';
  onChange: (value: T | '') => void;
  /** Offers "Global default (…)" as the empty value: a session's own policy follows it. */
  inherited?: T;
}

function PolicySelect<T extends string>({
  id,
  label,
  labels,
  value,
  onChange,
  inherited,
}: FieldProps<T> & { label: string; labels: Record<T, string> }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        {inherited !== undefined && <option value="">Global default ({labels[inherited]})</option>}
        {(Object.keys(labels) as T[]).map((key) => (
          <option key={key} value={key}>
            {labels[key]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The sessionboxer policy's agent tools: what the agent may do through the sessionboxer MCP. */
export function AgentToolsField(props: FieldProps<AgentToolsPolicy>) {
  return <PolicySelect {...props} label="Agent tools" labels={AGENT_TOOLS_LABELS} />;
}

/** "When the agent creates a session": Ask me (an approval card) or Do not ask. */
export function SessionCreationField(props: FieldProps<SessionCreationPolicy>) {
  return (
    <PolicySelect
      {...props}
      label="When the agent creates a session"
      labels={SESSION_CREATION_LABELS}
    />
  );
}
