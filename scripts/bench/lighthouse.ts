import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { startChild } from "./processes";

const CLI = path.resolve("node_modules/lighthouse/cli/index.js");
const CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync";
const RUN_TIMEOUT_MS = 150_000;

export interface LighthouseResult {
  scores: { performance: number; accessibility: number; bestPractices: number; seo: number };
  lcpMs: number;
  totalBytes: number;
  scriptBytes: number;
  /** Per category, the weighted audits that did not fully pass, with their measured value. */
  failing: Record<"performance" | "accessibility" | "bestPractices" | "seo", string>;
}

interface Report {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    { score: number | null; displayValue?: string; numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }
  >;
  runtimeError?: { message: string };
}

export function lighthouseAvailable(): boolean {
  return fs.existsSync(CLI);
}

/** One Lighthouse run with its default (mobile) settings, through its CLI in a process of its own. */
export async function runLighthouse(url: string, workDir: string): Promise<LighthouseResult> {
  const output = path.join(workDir, `lighthouse-${Date.now()}.json`);
  const child = startChild(
    process.execPath,
    [
      CLI,
      url,
      "--quiet",
      "--output=json",
      `--output-path=${output}`,
      `--chrome-flags=${CHROME_FLAGS}`,
      "--only-categories=performance,accessibility,best-practices,seo",
    ],
    { cwd: process.cwd(), env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" }, logFile: path.join(workDir, "lighthouse.log") },
  );
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, RUN_TIMEOUT_MS);
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (code !== 0 || !fs.existsSync(output)) throw new Error(`Lighthouse failed (exit ${code}); see its log in ${workDir}/lighthouse.log`);
  const report = JSON.parse(await fsp.readFile(output, "utf8")) as Report;
  if (report.runtimeError) throw new Error(`Lighthouse: ${report.runtimeError.message}`);
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const failing = (id: string) =>
    (report.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => [ref.id, report.audits[ref.id].displayValue].filter(Boolean).join(" "))
      .join(", ");
  const scripts = report.audits["resource-summary"]?.details?.items?.find((item) => item.resourceType === "script");
  return {
    scores: { performance: score("performance"), accessibility: score("accessibility"), bestPractices: score("best-practices"), seo: score("seo") },
    lcpMs: report.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    totalBytes: report.audits["total-byte-weight"]?.numericValue ?? NaN,
    scriptBytes: scripts?.transferSize ?? NaN,
    failing: { performance: failing("performance"), accessibility: failing("accessibility"), bestPractices: failing("best-practices"), seo: failing("seo") },
  };
}
