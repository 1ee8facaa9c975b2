import type { Region, ScreenSize } from '@sessionboxer/mcp-adapters/desktop';
import { badArgument, OPEN_URLS_MAX } from '@sessionboxer/domain/sandbox';
import type { KeyIdentity } from '../../api-keys';
import type { DesktopEngine } from '../../../../box-agent/src/desktop/engine';
import { openUrls } from './cdp-open';
import { ImageAnswer } from './image-answer';
import { checkInput, type InputArgs, type InputPlan } from './input-rules';
import type { SandboxDesktop } from './sandbox-desktop.service';

/** sandbox_open_url: each URL a new tab, through DevTools in the box. */
export async function openUrl(
  desktop: SandboxDesktop,
  caller: KeyIdentity,
  args: { sandbox: string; urls: string[] },
) {
  if (args.urls.length > OPEN_URLS_MAX) {
    throw badArgument('urls', `urls holds at most ${OPEN_URLS_MAX} URLs`);
  }
  args.urls.forEach((url, i) => {
    if (!URL.canParse(url)) throw badArgument('urls', `urls[${i}] is not a URL: ${url}`);
  });
  return desktop.with(caller, args.sandbox, 'open_url', async ({ doc }) => {
    await openUrls(desktop.driver, doc.id, args.urls);
    await desktop.record(caller, doc.id, {
      type: 'RecordUrlsOpened',
      data: { sandboxId: doc.id, count: args.urls.length },
    });
    return { done: 'open' };
  });
}

/**
 * The image size of a region scaled up to fit the screen, keeping its aspect ratio: the
 * axis that fills first sets the scale.
 */
export function fitted(region: Region, screen: ScreenSize): ScreenSize {
  const w = region.x2 - region.x1;
  const h = region.y2 - region.y1;
  const scale = Math.min(screen.width / w, screen.height / h);
  return {
    width: Math.max(1, Math.min(screen.width, Math.round(w * scale))),
    height: Math.max(1, Math.min(screen.height, Math.round(h * scale))),
  };
}

function checkRegion(region: number[], screen: ScreenSize): Region {
  const [x1, y1, x2, y2] = region;
  const { width, height } = screen;
  if (!(x1 < x2 && y1 < y2 && x2 <= width && y2 <= height)) {
    throw badArgument(
      'region',
      `region must be [x0, y0, x1, y1] with x0 < x1 <= ${width} and y0 < y1 <= ${height} (the screen is ${width}x${height})`,
    );
  }
  return { x1, y1, x2, y2 };
}

/** sandbox_screenshot: the screen, or a region scaled up keeping its aspect ratio. */
export function screenshot(
  desktop: SandboxDesktop,
  caller: KeyIdentity,
  args: { sandbox: string; region?: number[] },
) {
  return desktop.with(caller, args.sandbox, 'screenshot', async ({ engine }) => {
    const screen = engine.screen;
    if (args.region === undefined) {
      return new ImageAnswer(await engine.screenshot(), screen.width, screen.height);
    }
    const region = checkRegion(args.region, screen);
    const size = fitted(region, screen);
    return new ImageAnswer(await engine.zoom(region, size), size.width, size.height);
  });
}

async function send(engine: DesktopEngine, p: InputPlan): Promise<void> {
  switch (p.action) {
    case 'click':
      return engine.click(p.button, p.count, p.at, p.modifiers);
    case 'move':
      return engine.move(p.at!);
    case 'down':
      return engine.mouseDown();
    case 'up':
      return engine.mouseUp();
    case 'drag':
      return engine.drag(p.at!, p.to!, p.modifiers);
    case 'type':
      return engine.type(p.text);
    case 'key':
      return engine.key(p.presses);
    case 'hold':
      return engine.holdKey(p.presses, p.seconds);
    case 'scroll':
      return engine.scroll(p.direction, p.amount, p.at, p.modifiers);
    case 'cursor':
      return;
  }
}

/** sandbox_input: one input, every rule of the spec checked first; cursor reads the pointer. */
export function input(desktop: SandboxDesktop, caller: KeyIdentity, args: InputArgs) {
  return desktop.with(caller, args.sandbox, `input.${args.action}`, async ({ doc, engine }) => {
    const plan = checkInput(args, engine.screen);
    if (plan.action === 'cursor') return engine.cursor();
    await send(engine, plan);
    await desktop.record(caller, doc.id, {
      type: 'RecordDesktopInput',
      data: { sandboxId: doc.id, input: plan.facts },
    });
    return { done: plan.action };
  });
}
