import { splitImages, videoPaths } from '../src/components/transcript/media';
import { readableToolName } from '../src/components/transcript/tool-name';

describe('what agent output carries beyond its text', () => {
  it('names MCP tools as "server · tool" and built-in tools as they are', () => {
    expect(readableToolName('mcp__sessionboxer__whoami')).toBe('sessionboxer · whoami');
    expect(readableToolName('mcp__desktop__left_click')).toBe('desktop · left_click');
    expect(readableToolName('Bash')).toBe('Bash');
    expect(readableToolName('mcp__broken')).toBe('mcp__broken');
  });

  it('takes image lines out of a result, only workspace images', () => {
    const out =
      'Screenshot taken.\n[image /workspace/.sessionboxer/images/ab12.png]\n[image /etc/x.png]';
    expect(splitImages(out)).toEqual({
      text: 'Screenshot taken.\n[image /etc/x.png]',
      images: ['/workspace/.sessionboxer/images/ab12.png'],
    });
    expect(splitImages('[image]').images).toEqual([]);
  });

  it('finds each /workspace mp4 a reply names once, never one climbing out', () => {
    const text =
      'See /workspace/recordings/1.mp4 (and /workspace/recordings/1.mp4), /tmp/a.mp4, /workspace/../etc/b.mp4.';
    expect(videoPaths(text)).toEqual(['/workspace/recordings/1.mp4']);
  });
});
