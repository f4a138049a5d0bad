import client from "prom-client";
import { singleton } from "./singleton.server";

// Prometheus metrics through prom-client: the request counters and latency histogram this app
// records, gauges read at scrape time, and prom-client's default process metrics (CPU, heap,
// event-loop lag, GC, open file descriptors).
interface Metrics {
  registry: client.Registry;
  requests: client.Counter<"method" | "status">;
  latency: client.Histogram;
  uploads: client.Counter<"kind">;
}

function metrics(): Metrics {
  return singleton("metrics", () => {
    const registry = new client.Registry();
    client.collectDefaultMetrics({ register: registry });
    const uploads = new client.Counter({
      name: "uploads_total",
      help: "Files uploaded and stored, by kind.",
      labelNames: ["kind"] as const,
      registers: [registry],
    });
    // Both kinds appear from the first scrape, at 0, so dashboards need no special case.
    uploads.inc({ kind: "image" }, 0);
    uploads.inc({ kind: "audio" }, 0);
    return {
      registry,
      requests: new client.Counter({
        name: "http_requests_total",
        help: "HTTP requests answered, by method and status.",
        labelNames: ["method", "status"] as const,
        registers: [registry],
      }),
      latency: new client.Histogram({
        name: "http_request_duration_seconds",
        help: "Time to answer an HTTP request.",
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      }),
      uploads,
    };
  });
}

export function recordRequest(method: string, status: number, seconds: number): void {
  const { requests, latency } = metrics();
  requests.inc({ method, status: String(status) });
  latency.observe(seconds);
}

export function recordUpload(kind: "image" | "audio"): void {
  metrics().uploads.inc({ kind });
}

/** A value read when /metrics is scraped (e.g. connected listeners). Registering a name again replaces it. */
export function registerGauge(name: string, help: string, read: () => number): void {
  const { registry } = metrics();
  registry.removeSingleMetric(name);
  new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

export const METRICS_CONTENT_TYPE = client.Registry.PROMETHEUS_CONTENT_TYPE;

/** The Prometheus text exposition format. */
export function renderMetrics(): Promise<string> {
  return metrics().registry.metrics();
}
