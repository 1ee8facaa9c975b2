// Jest global setup: boxes run the compiled daemon and MCP servers from dist/, as they do in
// production, so build when any source is newer than the build. ~5 s when needed, else ~50 ms.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const marker = path.join(root, 'dist/apps/box-agent/src/main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'test') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

module.exports = async function buildIfStale() {
  const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const sources = Math.max(
    newestSource(path.join(root, 'apps')),
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
