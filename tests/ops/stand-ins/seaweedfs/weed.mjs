// The stand-in's `weed server ... -s3 -s3.port=P -s3.config=FILE -dir=D`: s3rver on a private
// port behind a small front on P that answers GET /healthz, lets in only the access key of the
// identities file (the real server also checks signatures; s3rver checks neither) and hands
// everything else to s3rver under the one key it knows.
import http from "node:http";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const S3rver = createRequire(import.meta.url)("s3rver");
const args = process.argv.slice(2);
if (args[0] !== "server") {
  console.error(`stand-in weed: only "weed server" is emulated, not ${args[0]}`);
  process.exit(2);
}
const option = (name, fallback) => {
  const arg = args.find((a) => a.startsWith(`-${name}=`));
  return arg ? arg.slice(name.length + 2) : fallback;
};
const dir = option("dir", "/data");
const port = Number(option("s3.port", "8333"));
const configFile = option("s3.config", null);
const identities = configFile ? JSON.parse(fs.readFileSync(configFile, "utf8")).identities : [];
const accessKeys = new Set(identities.flatMap((i) => i.credentials.map((c) => c.accessKey)));

const directory = path.join(dir, "s3rver");
fs.mkdirSync(directory, { recursive: true });
const backend = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
const { port: backendPort } = await backend.run();

const denied = (res) => {
  res.writeHead(403, { "Content-Type": "application/xml" });
  res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>Unknown access key</Message></Error>');
};

http
  .createServer((req, res) => {
    const url = new URL(req.url, "http://stand-in");
    if (req.method === "GET" && (url.pathname === "/healthz" || url.pathname === "/status")) {
      res.writeHead(200).end();
      return;
    }
    // s3rver takes a Host that is a name (here the service's, "s3") for a bucket (CNAME style).
    const headers = { ...req.headers, host: `127.0.0.1:${backendPort}` };
    const header = /Credential=([^/]+)\//.exec(headers.authorization ?? "");
    const query = url.searchParams.get("X-Amz-Credential");
    const key = header?.[1] ?? query?.split("/")[0];
    if (!key || (accessKeys.size > 0 && !accessKeys.has(key))) return denied(res);
    if (header) headers.authorization = headers.authorization.replace(`Credential=${key}/`, "Credential=S3RVER/");
    if (query) url.searchParams.set("X-Amz-Credential", query.replace(/^[^/]+/, "S3RVER"));
    const upstream = http.request({ host: "127.0.0.1", port: backendPort, method: req.method, path: url.pathname + url.search, headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  })
  .listen(port, "0.0.0.0", () => console.log(`stand-in weed: S3 API on :${port} (s3rver), data in ${directory}`));

for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => backend.close().finally(() => process.exit(0)));
