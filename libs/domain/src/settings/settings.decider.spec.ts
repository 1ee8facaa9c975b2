import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import type { UpdateSettings } from './settings.commands';
import { settingsDecider, settingsStream } from './settings.decider';
import type { SettingsUpdated } from './settings.events';
import { defaultSettings, type Settings } from './settings.state';

const spec = DeciderSpecification.for(settingsDecider);

function update(patch: unknown): UpdateSettings {
  return {
    type: 'UpdateSettings',
    data: { patch: patch as UpdateSettings['data']['patch'] },
    metadata: meta(),
  };
}

function updated(settings: Settings): SettingsUpdated {
  return { type: 'SettingsUpdated', data: { settings, at: AT } };
}

const SERVER = { name: 'postgres', command: ['npx', '-y', 'mcp-postgres'], env: { PGHOST: 'db' } };

describe('settings decider', () => {
  describe('never configured (the defaults)', () => {
    const given = spec.given([]);

    it('merges an object section field by field', () => {
      given.when(update({ sessionboxer: { agentTools: 'all' } })).then([
        updated({
          ...defaultSettings,
          sessionboxer: { ...defaultSettings.sessionboxer, agentTools: 'all' },
        }),
      ]);
    });

    it('replaces gitIdentity, mcpRegistry and environments whole', () => {
      const patch = {
        gitIdentity: { name: ' Ada ', email: 'ada@example.com' },
        mcpRegistry: [SERVER],
        environments: ['docker-linux', 'qemu-macos'],
      };
      given.when(update(patch)).then([
        updated({
          ...defaultSettings,
          gitIdentity: { name: 'Ada', email: 'ada@example.com' },
          mcpRegistry: [SERVER],
          environments: ['docker-linux', 'qemu-macos'],
        }),
      ]);
    });

    it('sets secrets as given', () => {
      const github = {
        token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        webhookSecret: 's3cret',
        pollSeconds: 30,
      };
      given.when(update({ github })).then([updated({ ...defaultSettings, github })]);
    });

    it('records nothing for an empty patch or one that changes nothing', () => {
      given.when(update({})).thenNothing();
      given.when(update({ defaults: { model: 'default' }, gitIdentity: null })).thenNothing();
      given.when(update({ sessionboxer: { globalCap: undefined } })).thenNothing();
    });

    it.each([
      ['no patch', null, /patch must be an object/],
      [
        'an unknown section',
        { theme: 'dark' },
        /unknown field theme in patch; expected defaults, sessionboxer/,
      ],
      ['an unknown field', { github: { tokn: 'x' } }, /unknown field tokn in github/],
      [
        'a section that is no object',
        { defaults: 'x' },
        /defaults must be an object of the fields to change/,
      ],
      [
        'a provider in capitals',
        { defaults: { provider: 'Claude' } },
        /defaults.provider must be one of claude-code, opencode, scripted \(got "Claude"\)/,
      ],
      [
        'a provider no harness runs',
        { defaults: { provider: 'nonexistent' } },
        /defaults.provider must be one of claude-code, opencode, scripted/,
      ],
      ['a blank model', { defaults: { model: ' ' } }, /defaults.model must be a model name/],
      [
        'an unknown environment',
        { defaults: { environment: 'wasm' } },
        /defaults.environment must be one of/,
      ],
      [
        'a default environment not offered',
        { defaults: { environment: 'qemu-windows' } },
        /defaults.environment qemu-windows is not one of the available environments \(docker-linux\)/,
      ],
      [
        'an unknown policy',
        { sessionboxer: { agentTools: 'some' } },
        /sessionboxer.agentTools must be one of off, session, all/,
      ],
      [
        'an unknown creation policy',
        { sessionboxer: { sessionCreation: 'never' } },
        /sessionboxer.sessionCreation must be one of ask, dont_ask/,
      ],
      [
        'a negative cap',
        { sessionboxer: { globalCap: -1 } },
        /sessionboxer.globalCap must be between 0 and 1000/,
      ],
      [
        'a fractional cap',
        { sessionboxer: { globalCap: 2.5 } },
        /globalCap must be a whole number/,
      ],
      [
        'a git identity without email',
        { gitIdentity: { name: 'Ada' } },
        /gitIdentity.email is missing/,
      ],
      [
        'a git email that is no email',
        { gitIdentity: { name: 'Ada', email: 'ada' } },
        /gitIdentity.email must be an email address/,
      ],
      [
        'an empty token',
        { github: { token: '' } },
        /github.token must be null or a string of 1–1000/,
      ],
      [
        'a token with a newline',
        { github: { token: 'ghp_x\n' } },
        /github.token must not contain spaces/,
      ],
      [
        'a webhook secret that is a number',
        { github: { webhookSecret: 42 } },
        /github.webhookSecret must be null or a string/,
      ],
      [
        'polling every second',
        { github: { pollSeconds: 1 } },
        /github.pollSeconds must be between 10 and 3600/,
      ],
      ['a registry that is no list', { mcpRegistry: {} }, /mcpRegistry must be a list/],
      [
        'a server without env',
        { mcpRegistry: [{ name: 'x', command: ['x'] }] },
        /mcpRegistry\[0\].env is missing/,
      ],
      [
        'a server named with a space',
        { mcpRegistry: [{ ...SERVER, name: 'my server' }] },
        /mcpRegistry\[0\].name must be 1–64 letters/,
      ],
      [
        'a server named like a built-in',
        { mcpRegistry: [{ ...SERVER, name: 'Desktop' }] },
        /Desktop is a built-in server's name/,
      ],
      [
        'two servers of one name',
        { mcpRegistry: [SERVER, { ...SERVER, name: 'Postgres' }] },
        /mcpRegistry names postgres twice/,
      ],
      [
        'a server without a command',
        { mcpRegistry: [{ ...SERVER, command: [] }] },
        /mcpRegistry\[0\].command must have 1–100 items/,
      ],
      [
        'a bad variable name',
        { mcpRegistry: [{ ...SERVER, env: { '1X': 'a' } }] },
        /mcpRegistry\[0\].env: "1X" is not a variable name/,
      ],
      [
        'a variable that is no string',
        { mcpRegistry: [{ ...SERVER, env: { X: 1 } }] },
        /mcpRegistry\[0\].env.X must be a string/,
      ],
      ['no environments', { environments: [] }, /environments must list at least one environment/],
      [
        'an environment twice',
        { environments: ['docker-linux', 'docker-linux'] },
        /environments must not repeat one/,
      ],
      [
        'an unknown environment in the list',
        { environments: ['docker-linux', 'wasm'] },
        /environments\[1\] must be one of/,
      ],
    ])('refuses %s', (_case, patch, why) => {
      given.when(update(patch)).thenThrows(ErrorCode.ValidationFailed, why);
    });
  });

  describe('configured', () => {
    const configured: Settings = {
      ...defaultSettings,
      github: {
        token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        webhookSecret: null,
        pollSeconds: 60,
      },
      mcpRegistry: [SERVER],
      environments: ['docker-linux', 'qemu-windows'],
    };
    const given = spec.given([updated(configured)]);

    it('keeps what the patch leaves out, the token included', () => {
      given
        .when(update({ github: { pollSeconds: 120 } }))
        .then([updated({ ...configured, github: { ...configured.github, pollSeconds: 120 } })]);
    });

    it('clears a token with null', () => {
      given
        .when(update({ github: { token: null } }))
        .then([updated({ ...configured, github: { ...configured.github, token: null } })]);
    });

    it('sees an env listed in another key order as unchanged', () => {
      const two = [{ ...SERVER, env: { A: '1', B: '2' } }];
      spec
        .given([updated({ ...configured, mcpRegistry: two })])
        .when(update({ mcpRegistry: [{ ...SERVER, env: { B: '2', A: '1' } }] }))
        .thenNothing();
    });

    it('checks the joined rule against the merged result', () => {
      given.when(update({ defaults: { environment: 'qemu-windows' } })).then([
        updated({
          ...configured,
          defaults: { ...configured.defaults, environment: 'qemu-windows' },
        }),
      ]);
      given
        .when(update({ environments: ['qemu-windows'] }))
        .thenThrows(ErrorCode.ValidationFailed, /defaults.environment docker-linux is not one of/);
    });
  });
});

describe('settingsStream', () => {
  it('is the one settings-global stream', () => {
    expect(settingsStream()).toBe('settings-global');
  });

  describe('the desktop section (narration of recordings)', () => {
    it('sets the narration mode, keeping the threshold', () => {
      spec
        .given([])
        .when(update({ desktop: { narration: 'never' } }))
        .then([
          updated({ ...defaultSettings, desktop: { narration: 'never', askAboveSeconds: 5 } }),
        ]);
    });

    it('refuses an unknown mode or a negative threshold, naming the field', () => {
      spec
        .given([])
        .when(update({ desktop: { narration: 'sometimes' } }))
        .thenThrows(ErrorCode.ValidationFailed, /desktop\.narration/);
      spec
        .given([])
        .when(update({ desktop: { askAboveSeconds: -1 } }))
        .thenThrows(ErrorCode.ValidationFailed, /desktop\.askAboveSeconds/);
    });

    it('fills the default into settings recorded before the section existed', () => {
      const { desktop: _desktop, ...older } = { ...defaultSettings, gitIdentity: null };
      spec
        .given([updated(older as Settings)])
        .when(update({ sessionboxer: { globalCap: 3 } }))
        .then([
          updated({
            ...defaultSettings,
            sessionboxer: { ...defaultSettings.sessionboxer, globalCap: 3 },
          }),
        ]);
    });
  });

  describe("relayed servers in the MCP registry (the terminal MCP for sessions' agents)", () => {
    it('takes { name, relay } with no command or env, and keeps it whole', () => {
      const terminals = { name: 'terminals', relay: 'terminals' as const };
      spec
        .given([])
        .when(update({ mcpRegistry: [SERVER, terminals] }))
        .then([updated({ ...defaultSettings, mcpRegistry: [SERVER, terminals] })]);
    });

    it('refuses an unknown relay, a command beside it, and the same relay twice', () => {
      const cases: [unknown, RegExp][] = [
        [[{ name: 'x', relay: 'nope' }], /mcpRegistry\[0\]\.relay must be one of terminals/],
        [[{ name: 'x', relay: 'terminals', command: ['x'] }], /unknown field command/],
        [
          [
            { name: 'a', relay: 'terminals' },
            { name: 'b', relay: 'terminals' },
          ],
          /mcpRegistry gives terminals twice/,
        ],
        [[{ name: 'sessionboxer', relay: 'terminals' }], /built-in server's name/],
      ];
      for (const [mcpRegistry, message] of cases) {
        spec
          .given([])
          .when(update({ mcpRegistry }))
          .thenThrows(ErrorCode.ValidationFailed, message);
      }
    });
  });

  describe("GiveRelayedMcpServer (the terminal MCP for sessions' agents, from the UI)", () => {
    const give = (relay: unknown, given: unknown) => ({
      type: 'GiveRelayedMcpServer' as const,
      data: { relay, given },
      metadata: update({}).metadata,
    });
    const terminals = { name: 'terminals', relay: 'terminals' as const };

    it('adds the entry beside the others (their secrets kept), and takes it back', () => {
      const withServer = { ...defaultSettings, mcpRegistry: [SERVER] };
      spec
        .given([updated(withServer)])
        .when(give('terminals', true))
        .then([updated({ ...withServer, mcpRegistry: [SERVER, terminals] })]);
      spec
        .given([updated({ ...withServer, mcpRegistry: [SERVER, terminals] })])
        .when(give('terminals', false))
        .then([updated(withServer)]);
    });

    it('records nothing when it is already so, and refuses an unknown relay', () => {
      spec.given([]).when(give('terminals', false)).then([]);
      spec
        .given([updated({ ...defaultSettings, mcpRegistry: [terminals] })])
        .when(give('terminals', true))
        .then([]);
      spec
        .given([])
        .when(give('shell', true))
        .thenThrows(ErrorCode.ValidationFailed, /relay must be one of terminals/);
      spec
        .given([])
        .when(give('terminals', 'yes'))
        .thenThrows(ErrorCode.ValidationFailed, /given must be true or false/);
    });
  });

  describe("the notifications section (the terminal MCP's debounce)", () => {
    it('is 100 ms by default and changes', () => {
      expect(defaultSettings.notifications).toEqual({ mcp: { debounceMs: 100 } });
      spec
        .given([])
        .when(update({ notifications: { mcp: { debounceMs: 20 } } }))
        .then([updated({ ...defaultSettings, notifications: { mcp: { debounceMs: 20 } } })]);
    });

    it('refuses a value out of range, a fraction, and an unknown field', () => {
      for (const debounceMs of [-1, 10_001, 1.5, '100']) {
        spec
          .given([])
          .when(update({ notifications: { mcp: { debounceMs } } }))
          .thenThrows(ErrorCode.ValidationFailed, /notifications\.mcp\.debounceMs/);
      }
      spec
        .given([])
        .when(update({ notifications: { mcp: { debounce: 5 } } }))
        .thenThrows(ErrorCode.ValidationFailed, /unknown field debounce in notifications\.mcp/);
    });

    it('fills the default into settings recorded before the section existed', () => {
      const { notifications: _n, ...older } = defaultSettings;
      spec
        .given([updated(older as Settings)])
        .when(update({ autoQa: { afterEachTurn: true } }))
        .then([updated({ ...defaultSettings, autoQa: { afterEachTurn: true } })]);
    });
  });

  describe('the autoQa section (Auto QA after each turn)', () => {
    it('is off by default and turns on', () => {
      expect(defaultSettings.autoQa).toEqual({ afterEachTurn: false });
      spec
        .given([])
        .when(update({ autoQa: { afterEachTurn: true } }))
        .then([updated({ ...defaultSettings, autoQa: { afterEachTurn: true } })]);
    });

    it('refuses a value that is not true or false, and an unknown field', () => {
      spec
        .given([])
        .when(update({ autoQa: { afterEachTurn: 'yes' } }))
        .thenThrows(ErrorCode.ValidationFailed, /autoQa\.afterEachTurn must be true or false/);
      spec
        .given([])
        .when(update({ autoQa: { afterTurn: true } }))
        .thenThrows(ErrorCode.ValidationFailed, /unknown field afterTurn in autoQa/);
    });

    it('fills the default into settings recorded before the section existed', () => {
      const { autoQa: _autoQa, ...older } = { ...defaultSettings, gitIdentity: null };
      spec
        .given([updated(older as Settings)])
        .when(update({ github: { pollSeconds: 30 } }))
        .then([
          updated({ ...defaultSettings, github: { ...defaultSettings.github, pollSeconds: 30 } }),
        ]);
    });
  });
});
