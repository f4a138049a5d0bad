import { singleton } from "./singleton.server";

// A small Prometheus registry: counters, one latency histogram, and gauges
// read at scrape time. Enough for /metrics without another dependency.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Registry {
  requests: Map<string, number>;
  latency: { buckets: number[]; sum: number; count: number };
  uploads: Map<string, number>;
  gauges: Map<string, { help: string; read: () => number }>;
}

function registry(): Registry {
  return singleton("metrics", () => ({
    requests: new Map(),
    latency: { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 },
    uploads: new Map(),
    gauges: new Map(),
  }));
}

export function recordRequest(method: string, status: number, seconds: number): void {
  const { requests, latency } = registry();
  const key = `method="${method}",status="${status}"`;
  requests.set(key, (requests.get(key) ?? 0) + 1);
  LATENCY_BUCKETS.forEach((bound, i) => {
    if (seconds <= bound) latency.buckets[i] += 1;
  });
  latency.sum += seconds;
  latency.count += 1;
}

export function recordUpload(kind: "image" | "audio"): void {
  const { uploads } = registry();
  uploads.set(kind, (uploads.get(kind) ?? 0) + 1);
}

/** A value read when /metrics is scraped (e.g. connected listeners). */
export function registerGauge(name: string, help: string, read: () => number): void {
  registry().gauges.set(name, { help, read });
}

/** The Prometheus text exposition format. */
export function renderMetrics(): string {
  const { requests, latency, uploads, gauges } = registry();
  const lines: string[] = [
    "# HELP http_requests_total HTTP requests answered, by method and status.",
    "# TYPE http_requests_total counter",
    ...[...requests].map(([labels, n]) => `http_requests_total{${labels}} ${n}`),
    "# HELP http_request_duration_seconds Time to answer an HTTP request.",
    "# TYPE http_request_duration_seconds histogram",
    ...LATENCY_BUCKETS.map((bound, i) => `http_request_duration_seconds_bucket{le="${bound}"} ${latency.buckets[i]}`),
    `http_request_duration_seconds_bucket{le="+Inf"} ${latency.count}`,
    `http_request_duration_seconds_sum ${latency.sum}`,
    `http_request_duration_seconds_count ${latency.count}`,
    "# HELP uploads_total Files uploaded and stored, by kind.",
    "# TYPE uploads_total counter",
    ...["image", "audio"].map((kind) => `uploads_total{kind="${kind}"} ${uploads.get(kind) ?? 0}`),
  ];
  for (const [name, gauge] of gauges) {
    lines.push(`# HELP ${name} ${gauge.help}`, `# TYPE ${name} gauge`, `${name} ${gauge.read()}`);
  }
  return lines.join("\n") + "\n";
}
