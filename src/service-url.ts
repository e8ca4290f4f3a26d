import type { Config } from "./config";

/**
 * Where clients reach this service, for the absolute links it writes (file links): PUBLIC_URL
 * when set, else `http://<HOST>:<the port it listens on>`, with `localhost` for a wildcard HOST.
 * Not the request's Host header: a client may send any, and public answers are shared by
 * caches and by concurrent readers (src/http/rest/shared-reads.ts), so a link made from one
 * reader's header would be served to the others.
 */
export class ServiceUrl {
  private port: number;

  constructor(private readonly config: Pick<Config, "publicUrl" | "host" | "port">) {
    this.port = config.port;
  }

  /** The port the server listens on: PORT=0 has the system choose one at listen time. */
  listening(port: number): void {
    this.port = port;
  }

  get origin(): string {
    return this.config.publicUrl ?? `http://${hostForLinks(this.config.host)}:${this.port}`;
  }
}

function hostForLinks(host: string): string {
  if (["", "0.0.0.0", "::", "[::]"].includes(host)) return "localhost";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
