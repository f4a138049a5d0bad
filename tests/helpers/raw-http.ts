import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request with headers exactly as given (fetch refuses to set Host
 * and normalises cookie and header values; an attacker's client does not).
 */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path, method: options.method ?? "GET", headers: options.headers, insecureHTTPParser: true },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The value part of the first Set-Cookie header ("name=value"). */
export function setCookieOf(response: { headers: http.IncomingHttpHeaders }): string {
  return (response.headers["set-cookie"]?.[0] ?? "").split(";")[0];
}
