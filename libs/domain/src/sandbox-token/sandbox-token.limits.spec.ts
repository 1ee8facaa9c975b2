import { isoMs } from '../sandbox/iso-time';
import { abilitiesAllow, abilityNeeded, isoFromMs, tokenTools } from '.';

describe('what a token reaches', () => {
  it('view: the screen, the desktop status and the tree; control: also input and start/stop', () => {
    expect(tokenTools(['view']).sort()).toEqual([
      'sandbox_accessibility_tree',
      'sandbox_desktop',
      'sandbox_screenshot',
    ]);
    expect(tokenTools(['control']).sort()).toEqual([
      'sandbox_accessibility_action',
      'sandbox_accessibility_tree',
      'sandbox_desktop',
      'sandbox_input',
      'sandbox_open_url',
      'sandbox_screenshot',
    ]);
    expect(abilityNeeded('sandbox_desktop', { action: 'status' })).toBe('view');
    expect(abilityNeeded('sandbox_desktop', {})).toBe('control');
    expect(abilityNeeded('sandbox_desktop', { action: 'stop' })).toBe('control');
    expect(abilityNeeded('sandbox_input', { action: 'cursor' })).toBe('control');
    expect(abilitiesAllow(['view'], 'control')).toBe(false);
    expect(abilitiesAllow(['control'], 'view')).toBe(true);
  });
  it('nothing else', () => {
    for (const tool of [
      'sandbox_exec',
      'sandbox_read_file',
      'sandbox_write_file',
      'sandbox_stop',
      'sandbox_destroy',
      'sandbox_list',
      'sandbox_create',
      'sandbox_create_token',
      'agent_prompt',
      'toString',
      '__proto__',
    ]) {
      expect([tool, abilityNeeded(tool, {})]).toEqual([tool, null]);
    }
  });
});

describe('isoFromMs', () => {
  it('is the inverse of isoMs across years, leap days and the epoch', () => {
    for (const at of [
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T23:59:59.999Z',
      '2026-01-02T03:04:05.000Z',
      '2026-12-31T23:59:59.500Z',
      '2100-03-01T00:00:00.001Z',
    ]) {
      expect(isoFromMs(isoMs(at))).toBe(at);
    }
    expect(isoFromMs(isoMs('2026-12-31T23:30:00.000Z') + 3600_000)).toBe(
      '2027-01-01T00:30:00.000Z',
    );
  });
});
