import webpush from "web-push";

/*
 * Web Push (RFC 8030) to browsers' push services: the `web-push` package encrypts the message for
 * the subscription (RFC 8291, aes128gcm) and signs the VAPID claim (RFC 8292); the request itself
 * is sent here with fetch, with a deadline, and only to the push services the configuration names
 * (PUSH_SERVICE_ORIGINS): a subscription's endpoint comes from a browser, so nothing else is ever
 * asked to receive a POST from the station.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome = "sent" | "gone" | "failed";

const SEND_TIMEOUT_MS = 10_000;

export function generateVapidKeys(): VapidKeys {
  return webpush.generateVAPIDKeys();
}

/** Whether `endpoint` is at one of `origins` ("https://*.push.apple.com" also allows subdomains). */
export function isAllowedPushEndpoint(endpoint: string, origins: string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return origins.some((origin) => {
    const [scheme, rest] = origin.split("://");
    if (url.protocol !== `${scheme}:`) return false;
    const host = url.host.toLowerCase();
    return rest.startsWith("*.") ? host.endsWith(rest.slice(1)) && host.length > rest.length - 1 : host === rest;
  });
}

/**
 * Sends one encrypted message. "gone" (404, 410) means the subscription has expired or was
 * withdrawn and should be forgotten; "failed" is anything worth trying again later.
 */
export async function sendPushMessage(
  target: PushTarget,
  payload: string,
  vapid: VapidKeys & { subject: string },
  options: { ttlSeconds: number },
): Promise<PushOutcome> {
  const request = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
    vapidDetails: vapid,
    TTL: options.ttlSeconds,
    urgency: "high",
    contentEncoding: "aes128gcm",
  });
  try {
    const response = await fetch(request.endpoint, {
      method: "POST",
      headers: request.headers as Record<string, string>,
      body: new Uint8Array(request.body),
      redirect: "error",
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return "gone";
    return response.ok ? "sent" : "failed";
  } catch {
    return "failed";
  }
}
