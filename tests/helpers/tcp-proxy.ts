import net from "node:net";

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1 (stays the same across cut/restore). */
  port: number;
  /** `url` with its host and port (or socket) replaced by the proxy's. */
  urlFor(url: string): string;
  /** Connections currently open through the proxy. */
  openConnections(): number;
  /** Stops listening and drops every open connection: the target looks down. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP forwarder to `target`: cutting it makes a database or
 * storage server look down to the app without stopping the real one.
 */
/** Where a PostgreSQL URL really connects: its host and port, or the Unix socket its `host=` names (the embedded server). */
export function databaseTarget(databaseUrl: string): ProxyTarget {
  const url = new URL(databaseUrl);
  const socketDir = url.searchParams.get("host");
  const port = Number(url.port || 5432);
  return socketDir?.startsWith("/") ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: url.hostname, port };
}

export type ProxyTarget = { host: string; port: number } | { path: string };

export async function startTcpProxy(target: ProxyTarget, port = 0): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let server: net.Server | null = null;

  const listen = (onPort: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const next = net.createServer((client) => {
        const upstream = "path" in target ? net.connect(target.path) : net.connect(target.port, target.host);
        clients.add(client);
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
          clients.delete(client);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      next.once("error", reject);
      next.listen(onPort, "127.0.0.1", () => resolve(next));
    });

  server = await listen(port);
  const boundPort = (server.address() as net.AddressInfo).port;

  const cut = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    clients.clear();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  return {
    port: boundPort,
    urlFor(url: string) {
      const parsed = new URL(url);
      parsed.searchParams.delete("host"); // a Unix socket the proxy now stands in for
      parsed.hostname = "127.0.0.1";
      parsed.port = String(boundPort);
      return parsed.toString();
    },
    openConnections: () => clients.size,
    cut,
    async restore() {
      if (!server) server = await listen(boundPort);
    },
    close: cut,
  };
}
