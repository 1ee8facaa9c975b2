import * as http from 'node:http';
import * as https from 'node:https';
import { isDomainError } from '@sessionboxer/domain';
import { edgeAnswer, type EdgeCaller, type EdgeRouteHandler } from '../egress';
import { forgeAuthorization } from './host-git';
import { readReceivePackHead, refusalReport, type RefUpdate } from './pkt-line';
import type { SessionRepo } from './repositories.service';

/** What the relay needs to know: the caller's repository (or a refusal) and the token. */
export interface GitRelayPort {
  sessionRepo(sessionId: string, name: string): SessionRepo;
  token(): Promise<string | null>;
}

const ROUTE =
  /^\/([A-Za-z0-9_][A-Za-z0-9_.-]{0,99})\/(info\/refs|git-upload-pack|git-receive-pack)$/;
const SERVICES = ['git-upload-pack', 'git-receive-pack'];
/** The command list of a push is small; a longer one is not a push this relay takes. */
const HEAD_MAX = 1 << 20;
const FORWARDED = ['content-type', 'accept', 'content-encoding', 'content-length', 'git-protocol'];
const RETURNED = ['content-type', 'content-encoding', 'content-length', 'cache-control', 'expires'];

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The `/git` route of a box's edge: git's smart-HTTP requests for the session's own
 * repositories, streamed both ways to the repository's clone URL with the forge token added
 * (the box never holds it). A push may update only the session's own branch.
 */
export function gitRelay(port: GitRelayPort): EdgeRouteHandler {
  return async (req, res, caller, subPath) => {
    try {
      await relay(port, req, res, caller, subPath);
    } catch (e) {
      const status = e instanceof Refusal ? e.status : isDomainError(e) ? 403 : 502;
      const message = e instanceof Error ? e.message : String(e);
      edgeAnswer(res, status, `sessionboxer git relay: ${message}`);
    }
  };
}

async function relay(
  port: GitRelayPort,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  caller: EdgeCaller,
  subPath: string,
): Promise<void> {
  const url = new URL(subPath, 'http://relay');
  const m = ROUTE.exec(url.pathname);
  if (!m) {
    throw new Refusal(
      404,
      'it serves /git/<repo>/info/refs?service=…, /git/<repo>/git-upload-pack and /git/<repo>/git-receive-pack',
    );
  }
  const [, name, endpoint] = m;
  const service = endpoint === 'info/refs' ? url.searchParams.get('service') : endpoint;
  if (!service || !SERVICES.includes(service)) {
    throw new Refusal(
      403,
      'only smart HTTP is relayed (service=git-upload-pack or git-receive-pack)',
    );
  }
  const method = endpoint === 'info/refs' ? 'GET' : 'POST';
  if (req.method !== method) throw new Refusal(405, `${endpoint} takes ${method}`);
  const repo = port.sessionRepo(caller.sessionId, name);
  const upstream = new URL(`${repo.cloneUrl}/${endpoint}`);
  if (endpoint === 'info/refs') upstream.search = `?service=${service}`;
  const token = await port.token();
  const headers: Record<string, string> = { 'user-agent': 'git/sessionboxer-relay' };
  for (const h of FORWARDED) {
    const v = req.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  if (token) headers.authorization = forgeAuthorization(token);
  let head: Buffer = Buffer.alloc(0);
  if (endpoint === 'git-receive-pack') {
    if (headers['content-encoding'] && headers['content-encoding'] !== 'identity') {
      throw new Refusal(415, 'a push must not be compressed (content-encoding)');
    }
    const read = await readHead(req);
    head = read.bytes;
    const refused = read.updates.filter((u) => u.ref !== `refs/heads/${repo.branch}`);
    if (refused.length > 0) return refusePush(req, res, repo, read.updates, read.capabilities);
  }
  forward(req, res, upstream, headers, head, name);
}

/** Reads the request until its command list is complete, or refuses it. */
async function readHead(
  req: http.IncomingMessage,
): Promise<{ bytes: Buffer; updates: RefUpdate[]; capabilities: string[] }> {
  let bytes: Buffer = Buffer.alloc(0);
  for (;;) {
    const parsed = readReceivePackHead(bytes);
    if (parsed.complete && 'error' in parsed) throw new Refusal(400, `bad push: ${parsed.error}`);
    if (parsed.complete)
      return { bytes, updates: parsed.updates, capabilities: parsed.capabilities };
    if (bytes.length > HEAD_MAX) throw new Refusal(413, 'the push names too many refs');
    const chunk = await nextChunk(req);
    if (chunk === null) throw new Refusal(400, 'bad push: the request ended inside its ref list');
    bytes = Buffer.concat([bytes, chunk]);
  }
}

function nextChunk(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      req.off('readable', onReadable);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onReadable = () => {
      const chunk = req.read() as Buffer | null;
      if (chunk === null) return;
      done();
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    req.on('readable', onReadable);
    req.once('end', onEnd);
    req.once('error', onError);
    if (req.readableEnded) onEnd();
  });
}

/** Answers the push itself, refusing each ref with why, after draining what the client sends. */
function refusePush(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  repo: SessionRepo,
  updates: RefUpdate[],
  capabilities: string[],
): void {
  const reasonFor = (ref: string) =>
    ref === `refs/heads/${repo.branch}`
      ? 'refused with the rest of this push'
      : ref === `refs/heads/${repo.defaultBranch}`
        ? `${repo.defaultBranch} is the default branch: push ${repo.branch} and open a pull request`
        : `this session pushes only to ${repo.branch}`;
  const report = refusalReport(
    updates.map((u) => ({ ref: u.ref, reason: reasonFor(u.ref) })),
    capabilities,
    `sessionboxer: this session may push only its own branch ${repo.branch} of ${repo.name}`,
  );
  const send = () => {
    if (res.headersSent) return;
    res.writeHead(200, {
      'content-type': 'application/x-git-receive-pack-result',
      'cache-control': 'no-cache',
      'content-length': report.length,
    });
    res.end(report);
  };
  req.on('data', () => undefined);
  req.once('end', send);
  req.once('error', () => res.destroy());
  if (req.readableEnded) send();
}

/** Streams the request (its already-read head first) to the forge and its answer back. */
function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: URL,
  headers: Record<string, string>,
  head: Buffer,
  name: string,
): void {
  const client = target.protocol === 'https:' ? https : http;
  const out = client.request(target, { method: req.method, headers }, (answer) => {
    const status = answer.statusCode ?? 502;
    if (status === 401 || status === 403) {
      answer.resume();
      edgeAnswer(
        res,
        403,
        `sessionboxer git relay: the forge refused ${name} (HTTP ${status}): check Global settings' GitHub token`,
      );
      return;
    }
    const back: Record<string, string> = {};
    for (const h of RETURNED) {
      const v = answer.headers[h];
      if (typeof v === 'string') back[h] = v;
    }
    res.writeHead(status, back);
    answer.pipe(res);
    answer.once('error', () => res.destroy());
  });
  out.once('error', (e) => edgeAnswer(res, 502, `sessionboxer git relay: ${name}: ${e.message}`));
  res.once('close', () => {
    if (!res.writableFinished) out.destroy();
  });
  req.once('error', () => out.destroy());
  if (req.readableEnded) {
    out.end(head);
    return;
  }
  if (head.length > 0) out.write(head);
  req.pipe(out);
}
