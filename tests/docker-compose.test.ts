import fs from "node:fs/promises";
import { parse } from "yaml";

// No Docker engine runs here, so the operators' compose file is checked by
// reading it: every service the app talks to is wired with matching settings.
interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  configs?: { source: string; target: string }[];
  command?: string;
}

interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  configs: Record<string, { content: string }>;
}

/** Replaces ${NAME:-default} and ${NAME:?message} with what compose uses when NAME is unset. */
function withDefaults(value: string): string {
  return value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, "$1").replace(/\$\{[A-Z0-9_]+:\?[^}]*\}/g, "<required>");
}

describe("docker-compose.yml", () => {
  let compose: Compose;
  let app: Service;
  let env: Record<string, string>;
  beforeAll(async () => {
    compose = parse(await fs.readFile("docker-compose.yml", "utf8"), { merge: true }) as Compose;
    app = compose.services.app;
    env = Object.fromEntries(Object.entries(app.environment ?? {}).map(([k, v]) => [k, withDefaults(String(v))]));
  });

  it("runs the app, PostgreSQL, MinIO and a proxy, each with a health check", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["app", "minio", "postgres", "proxy"]);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.healthcheck?.test, name).toBeTruthy();
    }
    expect(app.build).toBe(".");
  });

  it("points DATABASE_URL at the postgres service with its credentials", () => {
    const url = new URL(env.DATABASE_URL);
    const postgres = compose.services.postgres.environment!;
    expect(url.hostname).toBe("postgres");
    expect(url.port).toBe("5432");
    expect(url.username).toBe(withDefaults(postgres.POSTGRES_USER));
    expect(url.password).toBe(withDefaults(postgres.POSTGRES_PASSWORD));
    expect(url.pathname).toBe(`/${withDefaults(postgres.POSTGRES_DB)}`);
  });

  it("points S3 at the minio service with its root credentials", () => {
    const minio = compose.services.minio.environment!;
    expect(new URL(env.S3_ENDPOINT).host).toBe("minio:9000");
    expect(compose.services.minio.command).toContain("server /data");
    expect(env.S3_ACCESS_KEY).toBe(withDefaults(minio.MINIO_ROOT_USER));
    expect(env.S3_SECRET_KEY).toBe(withDefaults(minio.MINIO_ROOT_PASSWORD));
    expect(env.S3_BUCKET).toMatch(/^[a-z0-9.-]{3,63}$/);
  });

  it("requires a shared SESSION_SECRET and trusts exactly the proxy in front", () => {
    expect(env.SESSION_SECRET).toBe("<required>");
    expect(env.TRUST_PROXY).toBe("1");
    expect(env.NODE_ENV).toBe("production");
  });

  it("starts the app only when its database and storage are healthy", () => {
    expect(app.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      minio: { condition: "service_healthy" },
    });
    expect(compose.services.proxy.depends_on).toEqual({ app: { condition: "service_healthy" } });
  });

  it("keeps every service's data in a named volume", () => {
    const mounts = (service: string) => (compose.services[service].volumes ?? []).map((v) => v.split(":")[0]);
    expect(mounts("postgres")).toContain("postgres-data");
    expect(mounts("minio")).toContain("minio-data");
    expect(mounts("app")).toContain("app-data");
    expect(Object.keys(compose.volumes).sort()).toEqual(["app-data", "minio-data", "postgres-data"]);
  });

  it("proxies HTTP and WebSocket upgrades to every app instance", () => {
    const proxy = compose.services.proxy;
    expect(proxy.ports?.[0]).toMatch(/:80$/);
    const conf = compose.configs[proxy.configs![0].source].content;
    expect(conf).toContain("server app:3000;");
    expect(conf).toContain("proxy_pass http://station;");
    expect(conf).toContain("proxy_set_header Upgrade $$http_upgrade;");
    expect(conf).toMatch(/client_max_body_size \d+m;/);
  });

  it("builds the app image from a Dockerfile that serves the production server", async () => {
    const dockerfile = await fs.readFile("Dockerfile", "utf8");
    expect(dockerfile).toMatch(/^FROM node:20/m);
    expect(dockerfile).toContain("npm ci");
    // Built once into the image; a start runs the bundled server (what `npm run serve` runs).
    expect(dockerfile).toMatch(/^RUN npm run build\b/m);
    expect(dockerfile).toMatch(/^CMD \["node", "build\/server\/index.js"\]$/m);
    expect(dockerfile).not.toContain('tsx", "server/index.ts');
    expect(dockerfile).toContain("/healthz");
  });
});
