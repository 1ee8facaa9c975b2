import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { boxCommand, boxEvent, boxProvisioned } from '../../test/box-fixtures';
import { AT, meta } from '../../test/session-fixtures';
import { boxDecider } from './box.decider';
import type { AdoptBox, BoxEvent, LoseBoxProcesses } from '.';

/** What a (re)started control plane found of a box an earlier one left. */
const spec = DeciderSpecification.for(boxDecider);
const REASON = 'its main process 4242 is gone';

function adopt(processes: 'running' | 'frozen', pid: unknown = 4242): AdoptBox {
  return {
    type: 'AdoptBox',
    data: { sessionId: 's1', processes, pid: pid as number },
    metadata: meta(),
  };
}
const adopted = (processes: 'running' | 'frozen'): BoxEvent => ({
  type: 'BoxAdopted',
  data: { sessionId: 's1', processes, pid: 4242, at: AT },
});
const lose: LoseBoxProcesses = {
  type: 'LoseBoxProcesses',
  data: { sessionId: 's1', reason: REASON },
  metadata: meta(),
};
const lost: BoxEvent = {
  type: 'BoxProcessesLost',
  data: { sessionId: 's1', reason: REASON, at: AT },
};
const ready = [boxProvisioned(), boxEvent('BoxReady')];

describe('box decider: adoption after a control-plane restart', () => {
  it('records adopted processes, running or frozen, with their pid', () => {
    spec
      .given(ready)
      .when(adopt('running'))
      .then([adopted('running')]);
    spec
      .given([...ready, boxEvent('BoxFrozen')])
      .when(adopt('frozen'))
      .then([adopted('frozen')]);
  });

  it('counts an adopted running box as disconnected until its daemon reconnects', () => {
    spec
      .given([...ready, adopted('running')])
      .when(boxCommand('MarkBoxReady'))
      .then([boxEvent('BoxReady')]);
  });

  it('keeps an adopted frozen box frozen: it cannot connect, and thaws', () => {
    const history = [...ready, boxEvent('BoxFrozen'), adopted('frozen')];
    spec.given(history).when(boxCommand('FreezeBox')).thenNothing();
    spec
      .given(history)
      .when(boxCommand('ThawBox'))
      .then([boxEvent('BoxThawed')]);
    spec
      .given(history)
      .when(boxCommand('MarkBoxReady'))
      .thenThrows(ErrorCode.InvalidState, /frozen/);
  });

  it('refuses a pid that is not a positive integer', () => {
    spec.given(ready).when(adopt('running', 0)).thenThrows(ErrorCode.ValidationFailed, /pid/);
    spec.given(ready).when(adopt('running', '12')).thenThrows(ErrorCode.ValidationFailed, /pid/);
  });

  it('records lost processes once; the box cannot connect, freeze or thaw until provisioned', () => {
    spec.given(ready).when(lose).then([lost]);
    const history = [...ready, lost];
    spec.given(history).when(lose).thenNothing();
    for (const command of ['MarkBoxReady', 'FreezeBox', 'ThawBox'] as const) {
      spec
        .given(history)
        .when(boxCommand(command))
        .thenThrows(ErrorCode.InvalidState, /lost its processes; resume starts it again/);
    }
    spec
      .given(history)
      .when(boxCommand('DestroyBox'))
      .then([boxEvent('BoxDestroyed')]);
    spec
      .given([...history, boxProvisioned()])
      .when(boxCommand('MarkBoxReady'))
      .then([boxEvent('BoxReady')]);
  });

  it('refuses both on a destroyed box', () => {
    const history = [...ready, boxEvent('BoxDestroyed')];
    spec
      .given(history)
      .when(adopt('running'))
      .thenThrows(ErrorCode.InvalidState, /destroyed/);
    spec
      .given(history)
      .when(lose)
      .thenThrows(ErrorCode.InvalidState, /destroyed/);
  });
});
