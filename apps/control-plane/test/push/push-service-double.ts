import * as crypto from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A TEST DOUBLE of a Web Push service (no real one can be reached here), speaking the real
 * protocol: it checks the VAPID `Authorization: vapid t=<JWT>,k=<key>` (an ES256 JWT whose aud
 * is this origin and whose exp is in the future, verified with the key in k), decrypts the
 * aes128gcm body (RFC 8188 / RFC 8291) with the subscription's private key, which the test
 * generated as a browser would, and answers 201 (or the status a device was set to answer).
 */
export interface PushDevice {
  /** What a browser's PushSubscription.toJSON() gives the page. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The payloads it received, decrypted. */
  received: string[];
  /** What the double answers this device's pushes with (201: delivered). */
  answer: number;
}

export interface PushServiceDouble {
  origin: string;
  device(name: string): PushDevice;
  /** Requests refused, and why (a bad JWT, a body that did not decrypt). */
  refusals: string[];
  /** Resolves on the next push that reaches any device. */
  nextPush(): Promise<void>;
  close(): Promise<void>;
}

const b64u = (b: Buffer): string => b.toString('base64url');

function verifyVapid(header: string | undefined, origin: string): string | null {
  const m = /^vapid t=([^,]+),\s*k=(.+)$/.exec(header ?? '');
  if (!m) return 'no vapid Authorization';
  const [head, body, sig] = m[1].split('.');
  const point = Buffer.from(m[2], 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'k is not an uncompressed P-256 point';
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) },
    format: 'jwk',
  });
  const signed = Buffer.from(`${head}.${body}`);
  const signature = Buffer.from(sig ?? '', 'base64url');
  const ok = crypto.verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (!ok) return 'JWT signature does not verify';
  const alg = JSON.parse(Buffer.from(head, 'base64url').toString()).alg;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  if (alg !== 'ES256') return `JWT alg ${alg}`;
  if (claims.aud !== origin) return `JWT aud ${claims.aud}`;
  if (!(claims.exp > Date.now() / 1000)) return 'JWT expired';
  return null;
}

/** RFC 8291 (keys) over RFC 8188 (aes128gcm, one record). */
function decrypt(body: Buffer, ua: crypto.ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const secret = ua.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', secret, auth, info, 32));
  const cek = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16),
  );
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('no last-record delimiter');
  return plain.subarray(0, end).toString('utf8');
}

export async function startPushServiceDouble(): Promise<PushServiceDouble> {
  const devices = new Map<string, { device: PushDevice; ua: crypto.ECDH; auth: Buffer }>();
  const refusals: string[] = [];
  let waiters: (() => void)[] = [];
  let origin = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = devices.get(decodeURIComponent((req.url ?? '').replace(/^\/push\//, '')));
      const refuse = (status: number, why: string) => {
        refusals.push(why);
        res.writeHead(status).end(why);
      };
      if (req.method !== 'POST' || !entry) return refuse(404, `no device at ${req.url}`);
      const vapid = verifyVapid(req.headers.authorization, origin);
      if (vapid) return refuse(403, vapid);
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(400, 'not aes128gcm');
      if (!req.headers.ttl) return refuse(400, 'no TTL');
      try {
        const text = decrypt(Buffer.concat(chunks), entry.ua, entry.auth);
        if (entry.device.answer === 201) entry.device.received.push(text);
      } catch (e) {
        return refuse(400, `body does not decrypt: ${(e as Error).message}`);
      }
      res.writeHead(entry.device.answer).end();
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    refusals,
    device(name) {
      const ua = crypto.createECDH('prime256v1');
      ua.generateKeys();
      const auth = crypto.randomBytes(16);
      const device: PushDevice = {
        subscription: {
          endpoint: `${origin}/push/${encodeURIComponent(name)}`,
          keys: { p256dh: b64u(ua.getPublicKey()), auth: b64u(auth) },
        },
        received: [],
        answer: 201,
      };
      devices.set(name, { device, ua, auth });
      return device;
    },
    nextPush: () => new Promise((resolve) => waiters.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
