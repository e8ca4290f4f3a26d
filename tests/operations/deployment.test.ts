import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";

// No Docker engine runs the tests: these read the files `docker compose up` would.
const root = path.join(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

interface Compose {
  services: Record<
    string,
    { environment?: Record<string, string>; volumes?: string[]; build?: string }
  >;
  volumes: Record<string, unknown>;
}
const compose = parse(read("docker-compose.yml")) as Compose;
const api = compose.services.api;

const exampleVariables = read(".env.example")
  .split("\n")
  .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
  .filter((name): name is string => name !== undefined);

describe("docker-compose.yml", () => {
  it("passes every variable of .env.example to the API container", () => {
    expect(exampleVariables.length).toBeGreaterThan(20);
    const passed = Object.keys(api.environment ?? {});
    expect(exampleVariables.filter((name) => !passed.includes(name))).toEqual([]);
  });

  it("gives the API a volume where it writes DATA_DIR, which the image's user owns", () => {
    const dataDir = api.environment?.DATA_DIR;
    expect(dataDir).toBe("/app/data");
    const mount = (api.volumes ?? []).find((volume) => volume.endsWith(`:${dataDir}`));
    expect(mount).toBeDefined();
    expect(compose.volumes).toHaveProperty(mount!.split(":")[0]);
    const dockerfile = read("Dockerfile");
    expect(dockerfile).toMatch(/mkdir -p \/app\/data && chown node:node \/app\/data/);
    expect(dockerfile).toMatch(/DATA_DIR=\/app\/data/);
  });

  it("refuses to start without the production secrets", () => {
    expect(api.environment?.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/);
    expect(api.environment?.DATA_KEY).toMatch(/^\$\{DATA_KEY:\?/);
  });
});

describe("Dockerfile", () => {
  it("builds and runs on Node 22 LTS, while package.json still allows Node 20.19", () => {
    const images = [...read("Dockerfile").matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    expect(images).toEqual(["node:22-bookworm-slim", "node:22-bookworm-slim"]);
    const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines;
    expect(engines.node).toBe(">=20.19");
  });
});

describe("deploy/nginx.conf", () => {
  it("resolves the API replicas again as they are scaled", () => {
    const conf = read("deploy/nginx.conf");
    expect(conf).toMatch(/^resolver 127\.0\.0\.11 valid=10s/m);
    const variable = /set (\$\w+) http:\/\/api:4000;/.exec(conf)?.[1];
    expect(variable).toBeDefined();
    expect(conf).toContain(`proxy_pass ${variable};`);
    expect(conf).not.toMatch(/upstream api/);
  });
});
