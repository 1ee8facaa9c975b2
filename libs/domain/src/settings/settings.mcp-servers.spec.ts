import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import type { PutMcpServer, RemoveMcpServer } from './settings.commands';
import { settingsDecider } from './settings.decider';
import type { SettingsUpdated } from './settings.events';
import { defaultSettings, type McpServerEntry } from './settings.state';

const spec = DeciderSpecification.for(settingsDecider);
const put = (entry: unknown): PutMcpServer => ({
  type: 'PutMcpServer',
  data: { entry },
  metadata: meta(),
});
const remove = (name: unknown): RemoveMcpServer => ({
  type: 'RemoveMcpServer',
  data: { name },
  metadata: meta(),
});
const registry = (...mcpRegistry: McpServerEntry[]): SettingsUpdated => ({
  type: 'SettingsUpdated',
  data: { settings: { ...defaultSettings, mcpRegistry }, at: AT },
});

const PG = { name: 'postgres', command: ['npx', '-y', 'mcp-postgres'], env: { PGPASSWORD: 's3' } };
const TERMINALS = { name: 'terminals', relay: 'terminals' as const };

describe('the MCP registry, one server at a time (Settings → MCP registry)', () => {
  it('adds a server after the others, and replaces one of the same name in place', () => {
    spec
      .given([registry(TERMINALS)])
      .when(put(PG))
      .then([registry(TERMINALS, PG)]);
    const moved = { ...PG, command: ['node', 'pg.js'], env: { PGPASSWORD: 'new' } };
    spec
      .given([registry(PG, TERMINALS)])
      .when(put(moved))
      .then([registry(moved, TERMINALS)]);
  });

  it('keeps a secret given as null (the UI never sees it), and refuses a null with nothing to keep', () => {
    const edited = { ...PG, command: ['node', 'pg.js'], env: { PGPASSWORD: null, PGHOST: 'db' } };
    spec
      .given([registry(PG)])
      .when(put(edited))
      .then([registry({ ...edited, env: { PGPASSWORD: 's3', PGHOST: 'db' } })]);
    spec
      .given([])
      .when(put({ ...PG, env: { PGPASSWORD: null } }))
      .thenThrows(ErrorCode.ValidationFailed, /entry.env.PGPASSWORD has no current value/);
  });

  it('checks the entry as the whole registry is checked, naming the field', () => {
    spec
      .given([])
      .when(put({ ...PG, command: [] }))
      .thenThrows(ErrorCode.ValidationFailed, /mcpRegistry\[0\]\.command/);
    spec
      .given([])
      .when(put({ ...PG, name: 'desktop' }))
      .thenThrows(ErrorCode.ValidationFailed, /built-in server's name/);
    spec
      .given([registry(TERMINALS)])
      .when(put({ ...PG, name: 'terminals' }))
      .thenThrows(ErrorCode.ValidationFailed, /relayed server's name/);
    spec
      .given([])
      .when(put('pg'))
      .thenThrows(ErrorCode.ValidationFailed, /entry must be an object/);
  });

  it('removes a server by name, and says which one it does not have', () => {
    spec
      .given([registry(PG, TERMINALS)])
      .when(remove('postgres'))
      .then([registry(TERMINALS)]);
    spec
      .given([registry(PG)])
      .when(remove('nope'))
      .thenThrows(ErrorCode.NotFound, /no server nope/);
    spec
      .given([registry(TERMINALS)])
      .when(remove('terminals'))
      .thenThrows(ErrorCode.ValidationFailed, /its own switch/);
  });
});
