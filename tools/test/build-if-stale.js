// Jest global setup: boxes run the compiled daemon and MCP servers from dist/, as they do in
// production, so build when any source is newer than the build. ~5 s when needed, else ~50 ms.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const marker = path.join(root, 'dist/apps/box-agent/src/main.js');
const webMarker = path.join(root, 'dist/web/index.html');
const webSource = path.join(root, 'apps/web');

function newestSource(dir, skip = []) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'test' || skip.includes(entry.name))
      continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(ts|tsx|css|html)$/.test(entry.name))
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** The web UI (apps/web → dist/web) the browser tests load from the control plane. */
function buildWebIfStale() {
  if (!fs.existsSync(path.join(webSource, 'vite.config.ts'))) return;
  const built = fs.existsSync(webMarker) ? fs.statSync(webMarker).mtimeMs : 0;
  if (built >= newestSource(webSource)) return;
  process.stderr.write('\n[jest] building dist/web for the browser tests (sources changed)\n');
  try {
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        path.join(webSource, 'vite.config.ts'),
        '--logLevel',
        'warn',
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch {
    process.stderr.write('[jest] the web build failed; the browser tests will say so\n');
  }
}

module.exports = async function buildIfStale() {
  buildWebIfStale();
  const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const sources = Math.max(
    newestSource(path.join(root, 'apps'), ['web']),
    newestSource(path.join(root, 'libs')),
  );
  if (built >= sources) return;
  process.stderr.write('\n[jest] building dist/ for the boxes (sources changed)\n');
  try {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/@nestjs/cli/bin/nest.js'), 'build', 'control-plane'],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } catch {
    // tsc still emits what compiles; tests that need a missing file say so themselves, and
    // `npm run test:all` fails on the type errors in its own typecheck step.
    process.stderr.write('[jest] the build reported errors; tests that run dist/ may fail\n');
  }
};
