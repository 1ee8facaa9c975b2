import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { boxCommand, boxEvent, boxProvisioned, provisionBox } from '../../test/box-fixtures';
import { boxDecider, boxStream } from './box.decider';
import type { BoxCommand, BoxEvent } from '.';

const spec = DeciderSpecification.for(boxDecider);
const LATER = '2026-01-02T04:00:00.000Z';
type Step = [BoxCommand['type'], BoxEvent['type'] | 'nothing'];

/** For each state: the event each command records, or that it changes nothing. */
function accepts(history: BoxEvent[], steps: Step[]) {
  it.each(steps)('%s → %s', (command, event) => {
    const when = spec
      .given(history)
      .when(command === 'ProvisionBox' ? provisionBox() : boxCommand(command));
    if (event === 'nothing') when.thenNothing();
    else if (event === 'BoxProvisioned') when.then([boxProvisioned()]);
    else when.then([boxEvent(event)]);
  });
}

function refuses(history: BoxEvent[], commands: BoxCommand['type'][], why: RegExp) {
  it.each(commands)('refuses %s', (command) => {
    const cmd = command === 'ProvisionBox' ? provisionBox() : boxCommand(command);
    spec.given(history).when(cmd).thenThrows(ErrorCode.InvalidState, why);
  });
}

describe('box decider', () => {
  describe('no box', () => {
    const given = spec.given([]);

    it('is provisioned, stamped with the command time', () => {
      given.when(provisionBox({}, LATER)).then([boxProvisioned({}, LATER)]);
      given
        .when(provisionBox({ isolation: 'process' }))
        .then([boxProvisioned({ isolation: 'process' })]);
    });

    it.each([
      [
        'a relative workspace',
        { workspacePath: 'boxes/s1' },
        /workspacePath must be an absolute path/,
      ],
      [
        'a path with ..',
        { mcpJsonPath: '/var/../etc/.mcp.json' },
        /mcpJsonPath must be normalised/,
      ],
      ['a path with a newline', { workspacePath: '/a\nb' }, /control characters/],
      [
        'an unknown isolation',
        { isolation: 'docker' },
        /isolation must be one of bubblewrap, process/,
      ],
      ['a blank session id', { sessionId: '' }, /sessionId must not be empty/],
    ])('refuses %s', (_case, data, why) => {
      given.when(provisionBox(data as object)).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it.each([
      'MarkBoxReady',
      'MarkBoxDisconnected',
      'FreezeBox',
      'ThawBox',
      'DestroyBox',
      'FailBox',
    ] as const)('cannot take %s', (command) => {
      given
        .when(boxCommand(command))
        .thenThrows(ErrorCode.NotFound, 'session s1 has no box: it was never provisioned');
    });
  });

  describe('provisioning', () => {
    const history = [boxProvisioned()];
    accepts(history, [
      ['MarkBoxReady', 'BoxReady'],
      ['MarkBoxDisconnected', 'nothing'],
      ['FreezeBox', 'BoxFrozen'],
      ['ThawBox', 'nothing'],
      ['FailBox', 'BoxFailed'],
      ['DestroyBox', 'BoxDestroyed'],
      ['ProvisionBox', 'BoxProvisioned'],
    ]);

    it('records a failure as one line, cut at 1,000 characters', () => {
      const reason = `spawn failed:\n${'x'.repeat(2000)}`;
      const expected = `spawn failed: ${'x'.repeat(985)}…`;
      spec
        .given(history)
        .when(boxCommand('FailBox', 's1', reason))
        .then([boxEvent('BoxFailed', 's1', expected)]);
    });

    it('refuses a failure without a reason', () => {
      spec
        .given(history)
        .when(boxCommand('FailBox', 's1', ' \n '))
        .thenThrows(ErrorCode.ValidationFailed, /reason must say why/);
    });
  });

  describe('ready', () => {
    const history = [boxProvisioned(), boxEvent('BoxReady')];
    accepts(history, [
      ['MarkBoxReady', 'nothing'],
      ['MarkBoxDisconnected', 'BoxDisconnected'],
      ['FreezeBox', 'BoxFrozen'],
      ['ThawBox', 'nothing'],
      ['FailBox', 'BoxFailed'],
      ['DestroyBox', 'BoxDestroyed'],
      // After a control-plane restart the last status may still say ready: a new box replaces it.
      ['ProvisionBox', 'BoxProvisioned'],
    ]);
  });

  describe('disconnected', () => {
    const history = [boxProvisioned(), boxEvent('BoxReady'), boxEvent('BoxDisconnected')];
    accepts(history, [
      ['MarkBoxReady', 'BoxReady'],
      ['MarkBoxDisconnected', 'nothing'],
      ['FreezeBox', 'BoxFrozen'],
      ['ThawBox', 'nothing'],
      ['FailBox', 'BoxFailed'],
      ['DestroyBox', 'BoxDestroyed'],
      ['ProvisionBox', 'BoxProvisioned'],
    ]);
  });

  describe('frozen', () => {
    const history = [boxProvisioned(), boxEvent('BoxReady'), boxEvent('BoxFrozen')];
    accepts(history, [
      ['MarkBoxDisconnected', 'nothing'],
      ['FreezeBox', 'nothing'],
      ['ThawBox', 'BoxThawed'],
      ['FailBox', 'BoxFailed'],
      ['DestroyBox', 'BoxDestroyed'],
      ['ProvisionBox', 'BoxProvisioned'],
    ]);
    refuses(
      history,
      ['MarkBoxReady'],
      /a frozen box cannot connect; thaw it first \(it is frozen\)/,
    );
  });

  describe('thawed (disconnected until its daemon reconnects)', () => {
    const history = [
      boxProvisioned(),
      boxEvent('BoxReady'),
      boxEvent('BoxFrozen'),
      boxEvent('BoxThawed'),
    ];
    accepts(history, [
      ['MarkBoxReady', 'BoxReady'],
      ['ThawBox', 'nothing'],
      ['FreezeBox', 'BoxFrozen'],
    ]);
  });

  describe('failed', () => {
    const history = [boxProvisioned(), boxEvent('BoxFailed')];
    accepts(history, [
      ['MarkBoxDisconnected', 'nothing'],
      ['FailBox', 'nothing'],
      ['DestroyBox', 'BoxDestroyed'],
      ['ProvisionBox', 'BoxProvisioned'],
    ]);
    refuses(
      history,
      ['MarkBoxReady', 'FreezeBox', 'ThawBox'],
      /the box failed; provision it again or destroy it/,
    );

    it('is ready after it was provisioned again', () => {
      spec
        .given([...history, boxProvisioned()])
        .when(boxCommand('MarkBoxReady'))
        .then([boxEvent('BoxReady')]);
    });
  });

  describe('destroyed', () => {
    const history = [boxProvisioned(), boxEvent('BoxReady'), boxEvent('BoxDestroyed')];
    refuses(
      history,
      [
        'ProvisionBox',
        'MarkBoxReady',
        'MarkBoxDisconnected',
        'FreezeBox',
        'ThawBox',
        'DestroyBox',
        'FailBox',
      ],
      /the box was destroyed \(session s1\)/,
    );
  });
});

describe('boxStream', () => {
  it('names the stream box-<sessionId>', () => {
    expect(boxStream('3f2a-11')).toBe('box-3f2a-11');
  });

  it('refuses an empty id', () => {
    expect(() => boxStream('')).toThrow(/sessionId must not be empty/);
  });
});
