import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

// s3rver ships no types; this is the part of its API the tests use.
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: { address: string; port: number; silent: boolean; directory: string }) => S3rverServer;

export interface RunningS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** The settings that point the app at this server (bucket created by the app). */
  env(bucket?: string): Record<string, string>;
  stop(): Promise<void>;
}

/** A real S3 API over HTTP (s3rver) on a free loopback port, with its own temp folder. */
export async function startS3rver(): Promise<RunningS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "spin-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    accessKey: "S3RVER",
    secretKey: "S3RVER",
    env: (bucket = "station-media") => ({ S3_ENDPOINT: endpoint, S3_ACCESS_KEY: "S3RVER", S3_SECRET_KEY: "S3RVER", S3_BUCKET: bucket }),
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
