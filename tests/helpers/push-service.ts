import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A local stand-in for a browser's push service, speaking the Web Push protocol (RFC 8030): it
 * hands out subscriptions (an endpoint and the browser's keys, as PushSubscription.toJSON() gives
 * them), checks each POST's VAPID claim (RFC 8292: ES256 signed by the key in `k`, audience this
 * origin, not expired), and decrypts its aes128gcm payload (RFC 8291) with the subscription's
 * private key and auth secret, by hand with node:crypto so nothing of the sender's library is
 * trusted. An expired subscription answers 410 Gone.
 */

export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload, parsed as JSON. */
  message: { title: string; body: string; url: string; tag: string };
  ttl: number;
  vapidKey: string;
}

export interface PushService {
  origin: string;
  subscribe(): TestSubscription;
  /** From now on the push service has forgotten this subscription (410). */
  expire(id: string): void;
  received: ReceivedPush[];
  /** Requests it refused (bad claim, undecryptable), with why. */
  refused: string[];
  close(): Promise<void>;
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");

function decrypt(body: Buffer, uaPrivate: ReturnType<typeof createECDH>, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const asPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Error("more than one record");
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPrivate.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(-16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, -16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and optional zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end -= 1;
  if (plain[end] !== 2) throw new Error("no last-record delimiter");
  return plain.subarray(0, end);
}

function checkVapid(header: string | undefined, audience: string): string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`no VAPID authorization: ${header}`);
  const [, token, key] = match;
  const [head, claims, signature] = token.split(".");
  const raw = Buffer.from(key, "base64url");
  const publicKey = createPublicKey({ key: { kty: "EC", crv: "P-256", x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) }, format: "jwk" });
  if (!verify("sha256", Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))) {
    throw new Error("VAPID signature does not verify");
  }
  const claim = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as { aud: string; exp: number; sub: string };
  if (claim.aud !== audience) throw new Error(`VAPID audience ${claim.aud}`);
  if (!(claim.exp * 1000 > Date.now() && claim.exp * 1000 <= Date.now() + 24 * 3_600_000)) throw new Error("VAPID claim expired or too long");
  if (!/^(mailto:|https:)/.test(claim.sub)) throw new Error(`VAPID subject ${claim.sub}`);
  return key;
}

export async function startPushService(): Promise<PushService> {
  const subscriptions = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer; expired: boolean }>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  let origin = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? "")?.[1] ?? "";
      const subscription = subscriptions.get(id);
      if (req.method !== "POST" || !subscription) return res.writeHead(404).end();
      if (subscription.expired) return res.writeHead(410).end();
      try {
        if (req.headers["content-encoding"] !== "aes128gcm") throw new Error(`content-encoding ${req.headers["content-encoding"]}`);
        const ttl = Number(req.headers.ttl);
        if (!Number.isInteger(ttl) || ttl < 0) throw new Error(`TTL ${req.headers.ttl}`);
        const vapidKey = checkVapid(req.headers.authorization, origin);
        const payload = decrypt(Buffer.concat(chunks), subscription.ecdh, subscription.auth);
        received.push({ subscriptionId: id, message: JSON.parse(payload.toString("utf8")) as ReceivedPush["message"], ttl, vapidKey });
        res.writeHead(201, { Location: `${origin}/message/${received.length}` }).end();
      } catch (error) {
        refused.push((error as Error).message);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    refused,
    subscribe() {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomBytes(8).toString("hex");
      subscriptions.set(id, { ecdh, auth, expired: false });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } };
    },
    expire(id) {
      subscriptions.get(id)!.expired = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
