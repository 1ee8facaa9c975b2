import { imageOf, startDesktopServer, textOf, type DesktopClient } from './desktop-client';
import { pixelAt } from './png-decode';
import { freeDisplayNumber, startTestX, type TestX } from './x-server';

/**
 * The desktop server's looking tools and its refusals on a real Xvfb, through a real MCP
 * client: images are decoded and their pixels checked; refusals are checked to reach nothing.
 */
let x: TestX;
let desk: DesktopClient;

beforeAll(async () => {
  x = await startTestX();
  desk = await startDesktopServer({ DISPLAY: x.display, SESSIONBOXER_SCREEN: '1024x768' });
});
afterAll(async () => {
  await desk?.close();
  await x?.stop();
});

const RECORDING = [
  'start_recording',
  'annotate_recording',
  'stop_recording',
  'narrate_recording',
  'recording_status',
];
const DESKTOP = [
  'screenshot', 'zoom', 'cursor_position', 'mouse_move', 'left_click', 'right_click',
  'middle_click', 'double_click', 'triple_click', 'left_click_drag', 'left_mouse_down',
  'left_mouse_up', 'type', 'key', 'hold_key', 'scroll', 'wait',
]; // prettier-ignore

describe('the tool list', () => {
  it('has every desktop tool, then the recording tools, described for the screen', async () => {
    const { tools } = await desk.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...DESKTOP, ...RECORDING]);
    expect(desk.client.getServerVersion()?.name).toBe('desktop');
    const screenshot = tools.find((t) => t.name === 'screenshot');
    expect(screenshot?.description).toContain('The screen is 1024×768 pixels');
    expect(screenshot?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('builds descriptions and bounds from SESSIONBOXER_SCREEN at start', async () => {
    const small = await startDesktopServer({ DISPLAY: x.display, SESSIONBOXER_SCREEN: '800x600' });
    try {
      const { tools } = await small.client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect(byName.get('screenshot')?.description).toContain('x from 0 to 799, y from 0 to 599');
      const schema = byName.get('mouse_move')?.inputSchema as any;
      expect(schema.properties.coordinate.items[0].maximum).toBe(799);
      const refused = await small.call('mouse_move', { coordinate: [800, 10] });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('the screen is 800×600');
    } finally {
      await small.close();
    }
  });
});

describe('seeing the screen', () => {
  it('takes a PNG of the screen size whose pixels change when something is drawn', async () => {
    const before = imageOf(await desk.call('screenshot'));
    expect([before.width, before.height, before.channels]).toEqual([1024, 768, 3]);
    expect(pixelAt(before, 700, 450)).not.toEqual([255, 0, 0]);
    await x.xterm('red', '20x5+650+420', ['sleep', '60'], ['-bg', 'red']);
    const after = imageOf(await desk.call('screenshot'));
    expect(pixelAt(after, 700, 450)).toEqual([255, 0, 0]);
    expect(after.pixels.equals(before.pixels)).toBe(false);
  });

  it('zooms a region up to the full screen size', async () => {
    const zoomed = imageOf(await desk.call('zoom', { region: [660, 430, 700, 460] }));
    expect([zoomed.width, zoomed.height]).toEqual([1024, 768]);
    expect(pixelAt(zoomed, 512, 384)).toEqual([255, 0, 0]);
    // Half black, half red: the region straddles the window's left edge at x = 650.
    const edge = imageOf(await desk.call('zoom', { region: [640, 430, 660, 440] }));
    expect(pixelAt(edge, 100, 384)).toEqual([0, 0, 0]);
    expect(pixelAt(edge, 1000, 384)).toEqual([255, 0, 0]);
  });

  it('waits, then answers a screenshot', async () => {
    const started = Date.now();
    const shot = imageOf(await desk.call('wait', { duration: 0.3 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect([shot.width, shot.height]).toEqual([1024, 768]);
  });

  it('answers the pointer position as JSON', async () => {
    await desk.call('mouse_move', { coordinate: [12, 34] });
    expect(JSON.parse(textOf(await desk.call('cursor_position')))).toEqual({ x: 12, y: 34 });
  });
});

/** [tool, arguments, the field the refusal must name]. */
const BAD: [string, Record<string, unknown>, string][] = [
  ['screenshot', { scale: 2 }, 'scale'],
  ['zoom', { region: [10, 10, 10, 20] }, 'region is empty'],
  ['zoom', { region: [0, 0, 1025, 10] }, 'region x2'],
  ['cursor_position', { x: 1 }, 'x is not a parameter of this tool'],
  ['mouse_move', { coordinate: [1024, 0] }, 'coordinate x'],
  ['mouse_move', { coordinate: [3, -1] }, 'coordinate y'],
  ['mouse_move', {}, 'coordinate is required'],
  ['left_click', { coordinate: [0, 768] }, 'coordinate y'],
  ['left_click', { coordinate: [1.5, 2] }, 'coordinate x must be a whole number'],
  ['right_click', { text: 'a' }, 'text'],
  ['middle_click', { coordinate: [5, 5, 5] }, 'coordinate must be [x, y]'],
  ['double_click', { text: 'ctrl+' }, 'text'],
  ['triple_click', { coordinate: 'center' }, 'coordinate must be [x, y]'],
  ['left_click_drag', { coordinate: [1, 1] }, 'start_coordinate is required'],
  ['left_click_drag', { start_coordinate: [1, 1], coordinate: [1, 9999] }, 'coordinate y'],
  ['left_mouse_down', { coordinate: [99999, 1] }, 'coordinate x'],
  ['left_mouse_up', { coordinate: [1, -1] }, 'coordinate y'],
  ['type', { text: '' }, 'text must not be empty'],
  ['type', { text: 'a\u001b[2J' }, 'text may hold newlines'],
  ['key', { text: 'Enter' }, 'did you mean Return'],
  ['key', { text: 'ctrl+Retrun' }, 'unknown key "Retrun" (did you mean Return?)'],
  ['key', { text: 'ctrl+shift+foo' }, 'unknown key "foo"'],
  ['key', { text: '  ' }, 'text: names no key'],
  ['hold_key', { text: 'shift', duration: -1 }, 'duration must be more than 0'],
  ['hold_key', { text: 'shift', duration: 61 }, 'duration must be at most 60'],
  ['hold_key', { text: 'nope', duration: 1 }, 'unknown key "nope"'],
  ['scroll', { scroll_direction: 'down', scroll_amount: 0 }, 'scroll_amount must be at least 1'],
  ['scroll', { scroll_direction: 'down', scroll_amount: 51 }, 'scroll_amount must be at most 50'],
  ['scroll', { scroll_direction: 'sideways' }, 'scroll_direction must be one of'],
  ['wait', { duration: -0.5 }, 'duration must be at least 0'],
  ['wait', { duration: 61 }, 'duration must be at most 60'],
];

describe('refusals', () => {
  it('refuses bad input for every tool, naming the field, and sends nothing to the display', async () => {
    await desk.call('mouse_move', { coordinate: [900, 100] });
    const xev = await x.xev();
    const started = Date.now();
    for (const [tool, args, field] of BAD) {
      const result = await desk.call(tool, args);
      expect({ tool, args, isError: result.isError }).toEqual({ tool, args, isError: true });
      expect(textOf(result)).toContain(field);
    }
    expect(Date.now() - started).toBeLessThan(3_000); // no wait or hold ran
    await new Promise((r) => setTimeout(r, 150));
    await xev.stop();
    expect(xev.events()).toEqual([]);
    expect(JSON.parse(textOf(await desk.call('cursor_position')))).toEqual({ x: 900, y: 100 });
    expect(new Set(BAD.map(([tool]) => tool))).toEqual(new Set(DESKTOP));
  });

  it('waits for a display that comes up after the call (the daemon starts Xvfb meanwhile)', async () => {
    const number = freeDisplayNumber();
    const server = await startDesktopServer({ DISPLAY: `:${number}` });
    let late: TestX | undefined;
    try {
      const shot = server.call('screenshot');
      await new Promise((r) => setTimeout(r, 500));
      late = await startTestX(undefined, number);
      expect(imageOf(await shot).width).toBe(1024);
    } finally {
      await server.close();
      await late?.stop();
    }
  });

  it('carries on when the display restarts under it (the daemon restarts a dead Xvfb)', async () => {
    const number = freeDisplayNumber();
    let first: TestX | undefined = await startTestX(undefined, number);
    let second: TestX | undefined;
    const server = await startDesktopServer({ DISPLAY: `:${number}` });
    try {
      await server.call('mouse_move', { coordinate: [10, 10] });
      await first.stop();
      first = undefined;
      second = await startTestX(undefined, number);
      expect(textOf(await server.call('mouse_move', { coordinate: [20, 30] }))).toBe('OK');
      expect(JSON.parse(textOf(await server.call('cursor_position')))).toEqual({ x: 20, y: 30 });
    } finally {
      await server.close();
      await first?.stop();
      await second?.stop();
    }
  });

  it('reports a display that is not there as a tool error saying why', async () => {
    const lost = await startDesktopServer({ DISPLAY: `:${freeDisplayNumber()}` });
    try {
      const shot = await lost.call('screenshot');
      expect(shot.isError).toBe(true);
      expect(textOf(shot)).toMatch(
        /^screenshot failed: xwd failed: .*unable to open display.* \(the display :\d+ was not up within 3 s\)$/,
      );
      const click = await lost.call('left_click', { coordinate: [1, 1] });
      expect(click.isError).toBe(true);
      expect(textOf(click)).toMatch(
        /^left_click failed: xdotool exited with 1: .*Can't open display/,
      );
    } finally {
      await lost.close();
    }
  });
});
