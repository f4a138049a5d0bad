// The benchmark's ceiling: a bare Node `http` server answering the app's own /listen
// HTML from memory and one podcast's audio straight from disk (single Range honoured).
// Usage: node --import tsx scripts/bench/baseline-server.ts <listen.html> <audio-file>
import fs from "node:fs";
import http from "node:http";

const [htmlPath, audioPath] = process.argv.slice(2);
if (!htmlPath || !audioPath) {
  console.error("usage: baseline-server.ts <listen.html> <audio-file>");
  process.exit(2);
}
const html = fs.readFileSync(htmlPath);
const audioSize = fs.statSync(audioPath).size;

function byteRange(header: string | undefined): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Math.min(Number(match[2]), audioSize);
    return { start: audioSize - suffix, end: audioSize - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? audioSize - 1 : Math.min(Number(match[2]), audioSize - 1);
  return start <= end ? { start, end } : null;
}

const server = http.createServer((req, res) => {
  if (req.url === "/listen") {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": html.length });
    res.end(html);
    return;
  }
  if (req.url === "/audio") {
    const range = byteRange(req.headers.range);
    const { start, end } = range ?? { start: 0, end: audioSize - 1 };
    res.writeHead(range ? 206 : 200, {
      "Content-Type": "audio/mpeg",
      "Content-Length": end - start + 1,
      "Accept-Ranges": "bytes",
      ...(range ? { "Content-Range": `bytes ${start}-${end}/${audioSize}` } : {}),
    });
    fs.createReadStream(audioPath, { start, end }).pipe(res);
    return;
  }
  res.writeHead(404).end();
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
