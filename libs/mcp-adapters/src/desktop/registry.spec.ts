import { z } from 'zod';
import type { DesktopPort } from './port';
import { desktopServerTools, desktopTools } from './registry';

const SCREEN = { width: 1024, height: 768 };
const tools = desktopTools(SCREEN);
const byName = new Map(tools.map((t) => [t.name, t]));

function parse(name: string, args: unknown) {
  return z.object(byName.get(name)!.input).strict().safeParse(args);
}
function messages(name: string, args: unknown): string[] {
  const r = parse(name, args);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

/** A port that records calls and answers what the tools need. */
function recordingPort() {
  const calls: unknown[][] = [];
  const png = Buffer.from('png');
  const record =
    (name: string, answer?: unknown) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
      return Promise.resolve(answer);
    };
  const port = {
    screen: SCREEN,
    ...Object.fromEntries(
      [
        'move',
        'click',
        'drag',
        'mouseDown',
        'mouseUp',
        'type',
        'key',
        'holdKey',
        'scroll',
        'wait',
      ].map((m) => [m, record(m)]),
    ),
    screenshot: record('screenshot', png),
    zoom: record('zoom', png),
    cursor: record('cursor', { x: 1, y: 2 }),
  } as unknown as DesktopPort;
  return { port, calls, png };
}

describe('the desktop registry', () => {
  it('holds the 17 desktop tools in the order of the spec, then the recording tools', () => {
    expect(tools.map((t) => t.name)).toHaveLength(17);
    const all = desktopServerTools(SCREEN).map((t) => t.name);
    expect(all.slice(0, 3)).toEqual(['screenshot', 'zoom', 'cursor_position']);
    expect(all.slice(17)).toEqual([
      'start_recording',
      'annotate_recording',
      'stop_recording',
      'narrate_recording',
      'recording_status',
    ]);
    expect(tools.every((t) => t.route === 'box' && t.description.length > 60)).toBe(true);
  });

  it('describes the screen it was built for', () => {
    const small = desktopTools({ width: 800, height: 600 });
    expect(small[0].description).toContain('800×600');
    expect(small[0].description).toContain('x from 0 to 799, y from 0 to 599');
    expect(byName.get('zoom')!.description).toContain('[0, 0, 1024, 768] is the whole screen');
  });

  it('bounds coordinates by the screen, naming the axis', () => {
    expect(parse('left_click', { coordinate: [1023, 767] }).success).toBe(true);
    expect(messages('left_click', { coordinate: [1024, 0] })).toEqual([
      'coordinate x must be from 0 to 1023 (the screen is 1024×768)',
    ]);
    expect(messages('left_click_drag', { start_coordinate: [0, 768], coordinate: [0, 0] })).toEqual(
      ['start_coordinate y must be from 0 to 767 (the screen is 1024×768)'],
    );
    expect(messages('mouse_move', { coordinate: 'x' })).toEqual([
      'coordinate must be [x, y], whole numbers of pixels',
    ]);
  });

  it('takes zoom regions with exclusive ends, refusing empty and off-screen ones', () => {
    expect(parse('zoom', { region: [0, 0, 1024, 768] }).success).toBe(true);
    expect(messages('zoom', { region: [5, 5, 5, 9] })[0]).toMatch(/^region is empty/);
    expect(messages('zoom', { region: [0, 0, 1025, 768] })).toEqual([
      'region x2 must be from 0 to 1024 (the screen is 1024×768)',
    ]);
  });

  it('bounds durations, scroll amounts and text', () => {
    expect(parse('wait', { duration: 0 }).success).toBe(true);
    expect(messages('wait', { duration: 60.5 })).toEqual(['duration must be at most 60 seconds']);
    expect(messages('hold_key', { text: 'a', duration: 0 })).toEqual([
      'duration must be more than 0 seconds',
    ]);
    expect(parse('scroll', { scroll_direction: 'up' })).toMatchObject({
      data: { scroll_direction: 'up', scroll_amount: 3 },
    });
    expect(messages('type', { text: 'line\n\ttabbed' })).toEqual([]);
    expect(messages('type', { text: 'a'.repeat(5001) })).toHaveLength(1);
  });

  it('maps each call onto the port, answering OK, images and the position', async () => {
    const { port, calls, png } = recordingPort();
    const run = (name: string, args: Record<string, unknown>) =>
      byName.get(name)!.handle(port, parse(name, args).data as never);
    expect(await run('left_click', { coordinate: [5, 6], text: 'ctrl+shift' })).toBe('OK');
    expect(await run('triple_click', {})).toBe('OK');
    expect(await run('key', { text: 'ctrl+a Delete' })).toBe('OK');
    expect(await run('hold_key', { text: 'shift', duration: 1.5 })).toBe('OK');
    expect(
      await run('scroll', { scroll_direction: 'left', coordinate: [1, 2], text: 'shift' }),
    ).toBe('OK');
    expect(await run('zoom', { region: [1, 2, 3, 4] })).toEqual({ png });
    expect(await run('wait', { duration: 0.5 })).toEqual({ png });
    expect(await run('cursor_position', {})).toEqual({ x: 1, y: 2 });
    expect(calls).toEqual([
      ['click', 'left', 1, { x: 5, y: 6 }, ['ctrl', 'shift']],
      ['click', 'left', 3, undefined, undefined],
      ['key', [['ctrl', 'a'], ['Delete']]],
      ['holdKey', [['shift']], 1.5],
      ['scroll', 'left', 3, { x: 1, y: 2 }, ['shift']],
      ['zoom', { x1: 1, y1: 2, x2: 3, y2: 4 }],
      ['wait', 0.5],
      ['screenshot'],
      ['cursor'],
    ]);
  });
});
