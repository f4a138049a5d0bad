// Express with the Remix handler and nothing else: no database, session, security headers,
// logging, metrics or page cache. Prints {"port": N} once it listens.
import express from "express";
import { createRequestHandler } from "@remix-run/express";

const build = await import("./build/index.js");
const app = express();
app.all("*", createRequestHandler({ build, mode: "production" }));
const server = app.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
