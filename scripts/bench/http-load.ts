import autocannon from "autocannon";
import { cpuMilliseconds, residentBytes } from "./processes";

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Response bodies per second, counting `bodyBytes` per successful answer. */
  bodyBytesPerSecond: number;
  failed: number;
  /** Requests answered with 2xx. */
  answered: number;
  /** CPU time the serving process spent per answered request (independent of other load on the machine). */
  cpuMsPerRequest: number | null;
  /** Largest resident memory of `watchPid` seen during the run. */
  peakRss: number | null;
  /** Largest value of `sampleMemory` seen during the run. */
  peakSampled: number | null;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  bodyBytes?: number;
  watchPid?: number;
  /** Sampled with the RSS (every 250 ms): e.g. the whole station's PSS. */
  sampleMemory?: () => number | null;
}

/**
 * Loads one URL with autocannon: steady state, so one request first fills the page cache
 * (concurrent first requests would all render) and a one-second warm-up optimises the code.
 */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const base = { url, connections: options.connections, headers: options.headers, timeout: 10 };
  await fetch(url, { headers: options.headers, signal: AbortSignal.timeout(30_000) }).then((response) => response.arrayBuffer());
  await autocannon({ ...base, duration: 1 });
  let peakRss = residentBytes(options.watchPid);
  let peakSampled = options.sampleMemory?.() ?? null;
  const sampler = setInterval(() => {
    const rss = residentBytes(options.watchPid);
    if (rss !== null) peakRss = Math.max(peakRss ?? 0, rss);
    const sampled = options.sampleMemory?.() ?? null;
    if (sampled !== null) peakSampled = Math.max(peakSampled ?? 0, sampled);
  }, 250);
  const cpuBefore = cpuMilliseconds(options.watchPid);
  try {
    const result = await autocannon({ ...base, duration: options.durationSeconds });
    const cpuAfter = cpuMilliseconds(options.watchPid);
    return {
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      bodyBytesPerSecond: (result["2xx"] * (options.bodyBytes ?? 0)) / result.duration,
      failed: result.errors + result.timeouts + result.non2xx,
      answered: result["2xx"],
      cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && result["2xx"] > 0 ? (cpuAfter - cpuBefore) / result["2xx"] : null,
      peakRss,
      peakSampled,
    };
  } finally {
    clearInterval(sampler);
  }
}
