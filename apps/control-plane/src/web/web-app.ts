import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { projectRoot } from '../boxes';

/** What the page may load: only this origin, its socket, and media from its own API. */
const CSP = [
  "default-src 'self'",
  // asciinema-player (Terminal recordings) runs its terminal emulator as WebAssembly.
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function webAppDir(): string {
  return path.join(projectRoot(), 'dist', 'web');
}

/**
 * Serves the web UI's build (`dist/web`, made by `npm run build`) at `/`: its files as they
 * are, and index.html for every other GET outside /api, so /sessions/<id> loads the app, which
 * routes on the client. Without a build the API still runs and `/` says how to make one.
 */
export function serveWebApp(app: NestExpressApplication, dir = webAppDir()): void {
  const index = path.join(dir, 'index.html');
  app.useStaticAssets(dir, {
    index: false,
    setHeaders: (res: Response, file: string) => {
      res.setHeader('x-content-type-options', 'nosniff');
      // /index.html asked for by name gets the page's headers too.
      if (file.endsWith('.html')) pageHeaders(res);
    },
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    const api = req.path.startsWith('/api') || req.path === '/metrics';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || api) return next();
    if (!fs.existsSync(index)) {
      res
        .status(404)
        .type('text/plain')
        .send('The web UI is not built: run `npm run build` (npm start does), then reload.\n');
      return;
    }
    pageHeaders(res);
    res.sendFile(index);
  });
}

function pageHeaders(res: Response): void {
  res.setHeader('content-security-policy', CSP);
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'same-origin');
  res.setHeader('cache-control', 'no-cache');
}
