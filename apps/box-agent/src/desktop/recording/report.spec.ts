import { boxPath } from './report';

describe('boxPath: what the control plane is told a recording is called', () => {
  it('keeps a path inside a real box as it is', () => {
    expect(boxPath('/workspace', '/workspace/recordings/a.mp4')).toBe(
      '/workspace/recordings/a.mp4',
    );
  });
  it('turns an unisolated box’s host path into the /workspace path it stands for', () => {
    expect(boxPath('/data/boxes/x/workspace/', '/data/boxes/x/workspace/recordings/a.mp4')).toBe(
      '/workspace/recordings/a.mp4',
    );
  });
  it('leaves a path outside the workspace alone (the control plane refuses it)', () => {
    expect(boxPath('/data/boxes/x/workspace', '/data/boxes/x/workspace-other/a.mp4')).toBe(
      '/data/boxes/x/workspace-other/a.mp4',
    );
  });
});
