import net from "node:net";

/** Where the engine at `uri` listens: its Unix socket (a development engine) or host and port. */
export type EngineTarget = { path: string } | { host: string; port: number };

export function engineTarget(uri: string): EngineTarget {
  const host = decodeURIComponent(/^mongodb:\/\/(?:[^@/]*@)?([^/?]+)/.exec(uri)?.[1] ?? "");
  if (host.endsWith(".sock")) return { path: host };
  const url = new URL(uri);
  return { host: url.hostname, port: Number(url.port || 27017) };
}

/**
 * A TCP proxy in front of the database engine that a test can break the way networks break:
 * cut every open connection, silence them (a server that stops answering without closing
 * anything), or accept new ones and never answer (a black hole).
 */
export class TcpProxy {
  private mode: "forward" | "blackhole" = "forward";
  private readonly sockets = new Set<net.Socket>();

  private readonly server: net.Server;

  private constructor(target: EngineTarget) {
    this.server = net.createServer((client) => this.accept(client, target));
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  static async start(target: EngineTarget): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  /** New connections from now on are accepted and then never answered. */
  blackhole(): void {
    this.mode = "blackhole";
  }

  /** New connections from now on reach the engine again (black-holed ones stay silent). */
  forward(): void {
    this.mode = "forward";
  }

  /** Every connection open now stops carrying bytes either way, and stays open. */
  silenceAll(): void {
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  /** Every connection open now is reset, as when the engine or a middlebox drops them. */
  cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => this.sockets.delete(socket));
  }

  private accept(client: net.Socket, target: EngineTarget): void {
    this.track(client);
    if (this.mode === "blackhole") {
      client.pause();
      return;
    }
    const upstream = net.connect(target);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }
}
