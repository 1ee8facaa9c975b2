import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { HarnessOutput } from '@sessionboxer/domain';
import { claudeCodeHarness } from './claude-code';
import { openCodeHarness } from './opencode';
import { MAX_IMAGE_BYTES, workspaceMedia } from './saved-image';
import { replayer, turnSpecFor } from './test/stream-replay';

/** A real 1×1 PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** The screenshot both recorded streams carry (the fixtures' base64). */
const RECORDED_CLAUDE =
  'iVBORw0KGgoAAAANSUhEUgAABAAAAAMACAIAAAA12IJaAAAACXBIWXMAAA7EAAAOxAGVKw4bAAAgAElEQVR4nOzdd3wU1f7/8dcmm94hCSEQCL2D';
const RECORDED_OPENCODE =
  'iVBORw0KGgoAAAANSUhEUgAABAAAAAMACAIAAAA12IJaAAAACXBIWXMAAA7EAAAOxAGVKw4b';

const nameOf = (base64: string, ext = 'png') =>
  `${createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex').slice(0, 16)}.${ext}`;
const lineOf = (name: string) => `[image /workspace/.sessionboxer/images/${name}]`;

let workspace: string;
beforeEach(() => (workspace = mkdtempSync(path.join(tmpdir(), 'sb-images-'))));
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const saved = () => {
  try {
    return readdirSync(path.join(workspace, '.sessionboxer', 'images'));
  } catch {
    return [];
  }
};
const bytesOf = (name: string) =>
  readFileSync(path.join(workspace, '.sessionboxer', 'images', name));
const resultOf = (outputs: HarnessOutput[], id: string) =>
  outputs.find((o) => o.type === 'tool_result' && o.id === id) as { output: string } | undefined;

/** A Claude Code user line carrying one tool result of the given content blocks. */
const claudeResult = (content: unknown[]) => ({
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] },
  parent_tool_use_id: null,
  session_id: 's-1',
});
/** An OpenCode tool_use line of a finished call with the given attachments. */
const openCodeResult = (attachments: unknown[]) => ({
  type: 'tool_use',
  sessionID: 'ses_1',
  part: {
    type: 'tool',
    callID: 'call_1',
    tool: 'desktop_screenshot',
    state: { status: 'completed', input: {}, output: 'Screenshot.', attachments },
  },
});

describe("the real CLIs' tool-result images, saved in the workspace", () => {
  it("saves Claude Code's recorded screenshot and names it in the result", () => {
    const turn = turnSpecFor('claude-code', 'c1')();
    const outputs = replayer(claudeCodeHarness, turn, workspaceMedia(workspace)).replay(
      'claude-mcp-tools.jsonl',
    );
    const name = nameOf(RECORDED_CLAUDE);
    expect(resultOf(outputs, 'toolu_01Lp3xR8wVnQ5tKb2mYc9dHs')?.output).toBe(
      `${lineOf(name)}\nScreenshot of display :1 at 1024x768.`,
    );
    expect(saved()).toEqual([name]);
    expect(bytesOf(name).equals(Buffer.from(RECORDED_CLAUDE, 'base64'))).toBe(true);
  });

  it("saves OpenCode's recorded screenshot attachment and names it after the text", () => {
    const turn = turnSpecFor('opencode', 'c2')();
    const outputs = replayer(openCodeHarness, turn, workspaceMedia(workspace)).replay(
      'opencode-mcp-tools.jsonl',
    );
    const name = nameOf(RECORDED_OPENCODE);
    expect(resultOf(outputs, 'toolu_01Nw2Pz7Kc5Vt9Qm3Xb6Ly4H')?.output).toBe(
      `Screenshot of display :1 at 1024x768.\n${lineOf(name)}`,
    );
    expect(saved()).toEqual([name]);
    expect(bytesOf(name).equals(Buffer.from(RECORDED_OPENCODE, 'base64'))).toBe(true);
  });

  it('saves a JPEG as .jpg and the same image once, under its hash', () => {
    const { feed } = replayer(
      claudeCodeHarness,
      turnSpecFor('claude-code', 'c3')(),
      workspaceMedia(workspace),
    );
    const jpeg = { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: PNG } };
    const outputs = feed([claudeResult([jpeg, jpeg])]);
    const line = lineOf(nameOf(PNG, 'jpg'));
    expect(resultOf(outputs, 'toolu_1')?.output).toBe(`${line}\n${line}`);
    expect(saved()).toEqual([nameOf(PNG, 'jpg')]);
  });

  it('keeps [image] for an unknown type, data that is not base64, a URL or an oversize image', () => {
    const media = workspaceMedia(workspace);
    const claude = replayer(claudeCodeHarness, turnSpecFor('claude-code', 'c4')(), media);
    const image = (media_type: string, data: string) => ({
      type: 'image',
      source: { type: 'base64', media_type, data },
    });
    const oversize = 'A'.repeat(Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 4);
    const outputs = claude.feed([
      claudeResult([
        image('image/tiff', PNG),
        image('image/png', 'not base64!'),
        image('image/png', PNG.slice(1)),
        image('image/png', ''),
        image('image/png', oversize),
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 42 } },
      ]),
    ]);
    expect(resultOf(outputs, 'toolu_1')?.output).toBe(Array(7).fill('[image]').join('\n'));

    const openCode = replayer(openCodeHarness, turnSpecFor('opencode', 'c5')(), media);
    const attachments = [
      { type: 'file', mime: 'image/png', url: 'file:///workspace/shot.png' },
      { type: 'file', mime: 'image/bmp', url: `data:image/bmp;base64,${PNG}` },
      { type: 'file', mime: 'image/png', url: 'data:image/png,raw-bytes' },
      { type: 'file', mime: 'application/pdf', url: `data:application/pdf;base64,${PNG}` },
    ];
    expect(resultOf(openCode.feed([openCodeResult(attachments)]), 'call_1')?.output).toBe(
      'Screenshot.\n[image]\n[image]\n[image]\n[file]',
    );
    expect(saved()).toEqual([]);
  });

  it('keeps [image] without throwing when the workspace cannot be written', () => {
    writeFileSync(path.join(workspace, '.sessionboxer'), 'a file where the folder would go');
    const { feed } = replayer(
      openCodeHarness,
      turnSpecFor('opencode', 'c6')(),
      workspaceMedia(workspace),
    );
    const png = { type: 'file', mime: 'image/png', url: `data:image/png;base64,${PNG}` };
    expect(resultOf(feed([openCodeResult([png])]), 'call_1')?.output).toBe('Screenshot.\n[image]');
  });

  it('saves nothing through the default sink (what the sandbox API uses)', () => {
    const { feed } = replayer(openCodeHarness, turnSpecFor('opencode', 'c7')());
    const png = { type: 'file', mime: 'image/png', url: `data:image/png;base64,${PNG}` };
    expect(resultOf(feed([openCodeResult([png])]), 'call_1')?.output).toBe('Screenshot.\n[image]');
    expect(saved()).toEqual([]);
  });
});
