import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startDesktopServer, textOf, type DesktopClient } from './desktop-client';
import { startTestX, type TestX, type XevEvent } from './x-server';

/**
 * The desktop server's input tools on a real Xvfb, through a real MCP client, against real
 * windows: what arrives is checked where it lands (a file a shell wrote, xev's event log).
 */
let x: TestX;
let desk: DesktopClient;
const tmp = mkdtempSync(path.join(tmpdir(), 'sbx-desktop-'));
let term: ChildProcess | undefined;

beforeAll(async () => {
  x = await startTestX();
  desk = await startDesktopServer({ DISPLAY: x.display, SESSIONBOXER_SCREEN: '1024x768' });
});
afterEach(async () => {
  term?.kill('SIGKILL');
  term = undefined;
  // The next test's xterm must not be stacked over by this one, nor its xev see it go.
  await new Promise((r) => setTimeout(r, 100));
});
afterAll(async () => {
  await desk?.close();
  await x?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const fileHolds = (file: string, text: string) => () =>
  existsSync(file) && readFileSync(file, 'utf8') === text;

/** An xterm whose program writes what it reads to `file`, through sh's redirection. */
function catInto(file: string, catArgs: string[] = []): string[] {
  return ['sh', '-c', `exec cat ${catArgs.join(' ')} > "$0"`, file];
}

describe('typing and keys, into real xterms', () => {
  it('clicks into a shell and types a command that runs there', async () => {
    const out = path.join(tmp, 'answer.txt');
    term = await x.xterm('shell', '80x24+0+0', ['sh']);
    expect(textOf(await desk.call('left_click', { coordinate: [200, 150] }))).toBe('OK');
    expect(textOf(await desk.call('type', { text: `echo $((6*7)) > ${out}` }))).toBe('OK');
    expect(textOf(await desk.call('key', { text: 'Return' }))).toBe('OK');
    await waitFor(fileHolds(out, '42\n'), 'the shell to write 42');
  });

  it('types shell metacharacters literally: nothing in the text is ever executed', async () => {
    const out = path.join(tmp, 'literal.txt');
    const marker = path.join(tmp, 'executed');
    const text = `--help '"; touch ${marker}; $(touch ${marker}) \`touch ${marker}\` | & * ~ \\ %s $HOME`;
    term = await x.xterm('cat', '80x24+0+0', catInto(out));
    await desk.call('left_click', { coordinate: [200, 150] });
    expect(textOf(await desk.call('type', { text }))).toBe('OK');
    await desk.call('key', { text: 'Return ctrl+d' });
    await waitFor(fileHolds(out, `${text}\n`), 'cat to write the typed line');
    expect(existsSync(marker)).toBe(false);
  });

  it('sends combinations with modifiers, several presses in one call', async () => {
    const out = path.join(tmp, 'keys.txt');
    term = await x.xterm('catv', '80x24+0+0', catInto(out, ['-v']));
    await desk.call('left_click', { coordinate: [200, 150] });
    expect(textOf(await desk.call('key', { text: 'ctrl+a shift+b slash Return ctrl+d' }))).toBe(
      'OK',
    );
    await waitFor(fileHolds(out, '^AB/\n'), 'cat -v to show ^AB/');
  });
});

/** Runs `act` while xev records the root window (the pointer stays over the bare root). */
async function recorded(act: () => Promise<void>): Promise<XevEvent[]> {
  const xev = await x.xev();
  await act();
  await new Promise((r) => setTimeout(r, 150));
  await xev.stop();
  return xev.events();
}

const of = (events: XevEvent[], type: string) => events.filter((e) => e.type === type);

/** The gaps between consecutive key presses, in X server milliseconds. */
function pressGaps(events: XevEvent[]): number[] {
  const presses = of(events, 'KeyPress');
  return presses.slice(1).map((e, i) => e.time - presses[i].time);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

describe('the pace of typing, as the root window sees it', () => {
  // 60 keys: more than one chunk of 50, so the pause across a chunk boundary is measured too.
  const text = 'abcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, 60);

  it.each([
    ['a Linux desktop', {}, 12],
    ['a remote guest', { SESSIONBOXER_TYPE_DELAY_MS: '40' }, 40],
  ])('leaves the configured time between key presses on %s', async (_, env, ms) => {
    const paced = await startDesktopServer({ DISPLAY: x.display, ...env });
    try {
      const events = await recorded(async () => {
        expect(textOf(await paced.call('type', { text }))).toBe('OK');
      });
      const gaps = pressGaps(events);
      expect(gaps).toHaveLength(text.length - 1);
      // A floor, not a tight timing: a busy machine only makes the gaps longer on average.
      expect(median(gaps)).toBeGreaterThanOrEqual(ms);
      expect(gaps.reduce((a, b) => a + b, 0) / gaps.length).toBeGreaterThanOrEqual(ms);
    } finally {
      await paced.close();
    }
  });
});

describe('the pointer, as the root window sees it', () => {
  it('drags: press at the start, a glide through points in between, release at the end', async () => {
    await desk.call('mouse_move', { coordinate: [50, 500] });
    const events = await recorded(async () => {
      const args = { start_coordinate: [100, 600], coordinate: [700, 650] };
      expect(textOf(await desk.call('left_click_drag', args))).toBe('OK');
    });
    const [press] = of(events, 'ButtonPress');
    const [release] = of(events, 'ButtonRelease');
    expect(press).toMatchObject({ button: 1, x: 100, y: 600 });
    expect(release).toMatchObject({ button: 1, x: 700, y: 650 });
    const between = of(events, 'MotionNotify').filter(
      (e) => e.time > press.time && e.time < release.time,
    );
    expect(between.length).toBeGreaterThanOrEqual(15);
    expect(between.some((e) => e.x > 250 && e.x < 550)).toBe(true);
    // The glide for 603 px lasts ~220 ms, plus the settle pauses around it.
    expect(release.time - press.time).toBeGreaterThanOrEqual(200);
    expect(release.time - press.time).toBeLessThan(1_000); // room for a busy machine
    expect(JSON.parse(textOf(await desk.call('cursor_position')))).toEqual({ x: 700, y: 650 });
  });

  it('clicks with every button and count, modifiers held, and scrolls by notches', async () => {
    const events = await recorded(async () => {
      await desk.call('right_click', { coordinate: [300, 500], text: 'shift' });
      await desk.call('middle_click', {});
      await desk.call('double_click', { coordinate: [320, 520] });
      await desk.call('triple_click', {});
      await desk.call('scroll', {
        coordinate: [400, 550],
        scroll_direction: 'down',
        scroll_amount: 3,
      });
      await desk.call('scroll', { scroll_direction: 'left', scroll_amount: 2 });
    });
    const presses = of(events, 'ButtonPress').map((e) => e.button);
    expect(presses).toEqual([3, 2, 1, 1, 1, 1, 1, 5, 5, 5, 6, 6]);
    const [right] = of(events, 'ButtonPress');
    expect(right).toMatchObject({ x: 300, y: 500 });
    expect((right.state ?? 0) & 1).toBe(1); // ShiftMask: the modifier was down
    expect(of(events, 'KeyRelease').map((e) => e.keysym)).toContain('Shift_L');
    expect(of(events, 'ButtonPress')[7]).toMatchObject({ x: 400, y: 550 });
  });

  it('holds a key for its duration, while another call clicks', async () => {
    const events = await recorded(async () => {
      const hold = desk.call('hold_key', { text: 'ctrl', duration: 0.6 });
      await new Promise((r) => setTimeout(r, 200));
      await desk.call('left_click', { coordinate: [500, 500] });
      expect(textOf(await hold)).toBe('OK');
    });
    const down = of(events, 'KeyPress').find((e) => e.keysym === 'Control_L');
    const up = of(events, 'KeyRelease').find((e) => e.keysym === 'Control_L');
    expect(up!.time - down!.time).toBeGreaterThanOrEqual(550);
    const [click] = of(events, 'ButtonPress');
    expect((click.state ?? 0) & 4).toBe(4); // ControlMask: pressed while held
  });

  it('presses and releases as two calls, moving in between with the button held', async () => {
    const events = await recorded(async () => {
      await desk.call('left_mouse_down', { coordinate: [500, 400] });
      await desk.call('mouse_move', { coordinate: [600, 450] });
      await desk.call('left_mouse_up', { coordinate: [650, 460] });
    });
    expect(of(events, 'ButtonPress')[0]).toMatchObject({ button: 1, x: 500, y: 400 });
    expect(of(events, 'ButtonRelease')[0]).toMatchObject({ button: 1, x: 650, y: 460 });
    const held = of(events, 'MotionNotify').filter((e) => ((e.state ?? 0) & 0x100) !== 0);
    expect(held.some((e) => e.x === 600 && e.y === 450)).toBe(true);
  });

  it('glides a move over 100–300 ms at about 120 positions a second, eased', async () => {
    await desk.call('mouse_move', { coordinate: [100, 100] });
    const events = await recorded(async () => {
      await desk.call('mouse_move', { coordinate: [900, 700] });
    });
    const moves = of(events, 'MotionNotify');
    const span = moves[moves.length - 1].time - moves[0].time;
    expect(span).toBeGreaterThanOrEqual(220);
    expect(span).toBeLessThanOrEqual(500); // 300 ms, with room for a busy machine
    expect(moves.length).toBeGreaterThanOrEqual(25);
    const steps = moves.slice(1).map((e, i) => e.x - moves[i].x);
    expect(Math.max(...steps.slice(0, 3))).toBeLessThan(Math.max(...steps)); // slow start
    expect(moves[moves.length - 1]).toMatchObject({ x: 900, y: 700 });
  });

  it('jumps instead with SESSIONBOXER_MOUSE_GLIDE=0', async () => {
    const jumpy = await startDesktopServer({ DISPLAY: x.display, SESSIONBOXER_MOUSE_GLIDE: '0' });
    try {
      await jumpy.call('mouse_move', { coordinate: [100, 100] });
      const events = await recorded(async () => {
        await jumpy.call('left_click', { coordinate: [900, 700] });
      });
      expect(of(events, 'MotionNotify')).toHaveLength(1);
      expect(of(events, 'ButtonPress')[0]).toMatchObject({ x: 900, y: 700 });
    } finally {
      await jumpy.close();
    }
  });
});
