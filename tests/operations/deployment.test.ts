import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";

// No Docker engine runs the tests: these read the files `docker compose up` would.
const root = path.join(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  secrets?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  secrets: Record<string, { environment?: string; file?: string }>;
}
const composeText = read("docker-compose.yml");
const compose = parse(composeText) as Compose;
const { api, mongo, redis, proxy, backup } = compose.services;

/** The service's own variables: those above the compose-only section of .env.example. */
const [serviceSection, composeSection] = read(".env.example").split("# --- docker compose only");
const variablesOf = (text: string) =>
  text
    .split("\n")
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
const healthcheckOf = (service: Service) => (service.healthcheck?.test ?? []).join(" ");
/** Variables compose refuses to start without (`${NAME:?…}`). */
const required = [...new Set([...composeText.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]))];

describe("docker-compose.yml", () => {
  it("passes every variable of the service in .env.example to the API container", () => {
    const exampleVariables = variablesOf(serviceSection);
    expect(exampleVariables.length).toBeGreaterThan(20);
    const passed = Object.keys(api.environment ?? {});
    expect(exampleVariables.filter((name) => !passed.includes(name))).toEqual([]);
  });

  it("documents in .env.example every variable compose reads", () => {
    const documented = [...variablesOf(serviceSection), ...variablesOf(composeSection)];
    const used = [...new Set([...composeText.matchAll(/\$\{(\w+)[:}]/g)].map((m) => m[1]))];
    expect(used.filter((name) => !documented.includes(name))).toEqual([]);
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

  it("declares every named volume it mounts, and mounts only files that exist", () => {
    for (const [name, service] of Object.entries(compose.services))
      for (const volume of service.volumes ?? []) {
        const source = volume.split(":")[0];
        if (source.startsWith("./"))
          expect([name, fs.existsSync(path.join(root, source))]).toEqual([name, true]);
        else expect(compose.volumes).toHaveProperty(source);
      }
  });

  it("refuses to start without the secrets, the domain and SMTP", () => {
    expect(required.sort()).toEqual(
      [
        "APP_URL",
        "CORS_ORIGINS",
        "DATA_KEY",
        "DOMAIN",
        "JWT_SECRET",
        "MONGO_APP_PASSWORD",
        "MONGO_ROOT_PASSWORD",
        "REDIS_PASSWORD",
        "S3_ACCESS_KEY_ID",
        "S3_SECRET_ACCESS_KEY",
        "SMTP_URL",
      ].sort(),
    );
    expect(api.environment?.PUBLIC_URL).toMatch(/^https:\/\/\$\{DOMAIN:\?/);
    expect(api.environment?.NODE_ENV).toBe("production");
  });

  it("puts Caddy with automatic TLS for DOMAIN in front, over every replica", () => {
    expect(proxy.image).toMatch(/^caddy:2/);
    expect(proxy.ports).toEqual(expect.arrayContaining(["80:80", "443:443"]));
    expect(proxy.volumes).toEqual(
      expect.arrayContaining(["./deploy/Caddyfile:/etc/caddy/Caddyfile:ro", "caddy-data:/data"]),
    );
    const caddyfile = read("deploy/Caddyfile");
    expect(caddyfile).toMatch(/^\{\$DOMAIN\} \{/m);
    expect(caddyfile).toMatch(/dynamic a api 4000 \{\s*refresh 10s/);
    expect(api.environment?.TRUST_PROXY).toBe("1");
  });

  it("lets through the proxy every body the API accepts, uploads up to FILE_MAX_BYTES included", () => {
    const caddyfile = read("deploy/Caddyfile");
    const fileMax = Number(
      /^\$\{FILE_MAX_BYTES:-(\d+)\}$/.exec(api.environment!.FILE_MAX_BYTES)![1],
    );
    const units: Record<string, number> = {
      "": 1,
      KB: 1e3,
      MB: 1e6,
      GB: 1e9,
      KIB: 1024,
      MIB: 1024 ** 2,
    };
    // A cap, if any, must leave room for the largest file and its multipart framing.
    for (const [, amount, unit] of caddyfile.matchAll(/^\s*max_size\s+(\d+)\s*([a-z]*)\s*$/gim))
      expect(Number(amount) * units[unit.toUpperCase()]).toBeGreaterThan(fileMax + 64 * 1024);
    expect(caddyfile).not.toMatch(/max_size\s+\{\$/);
  });

  it("runs MongoDB as a replica set with authentication and a key file from a secret", () => {
    expect(mongo.command).toEqual(expect.arrayContaining(["--replSet", "rs0", "--keyFile"]));
    expect(mongo.secrets).toEqual(["mongo_keyfile"]);
    expect(compose.secrets.mongo_keyfile).toEqual({ environment: "MONGO_REPLICA_KEY" });
    expect(mongo.entrypoint?.join(" ")).toMatch(/install -o mongodb -g mongodb -m 0400/);
    expect(mongo.environment?.MONGO_INITDB_ROOT_PASSWORD).toMatch(/^\$\{MONGO_ROOT_PASSWORD:\?/);
    expect(api.environment?.MONGODB_URI).toMatch(
      /^mongodb:\/\/\$\{MONGO_APP_USER:-chaplaincy\}:\$\{MONGO_APP_PASSWORD:\?[^}]+\}@mongo:27017\/.*replicaSet=rs0/,
    );
    expect(read("deploy/mongo-init.js")).toMatch(/createUser\(/);
  });

  it("is healthy only when a primary accepts a majority write", () => {
    const check = healthcheckOf(mongo);
    expect(check).toMatch(/isWritablePrimary\) quit\(1\)/);
    // No secret on mongosh's command line (the process list): read from the environment.
    expect(check).not.toMatch(/\s-p\s|--password|MONGO_INITDB_ROOT_PASSWORD"/);
    expect(check).toContain("process.env.MONGO_INITDB_ROOT_PASSWORD");
    expect(check).toMatch(/updateOne\(.*w: 'majority'/s);
    expect(api.depends_on).toMatchObject({
      mongo: { condition: "service_healthy" },
      redis: { condition: "service_healthy" },
    });
  });

  it("runs Redis with a password, and the API knows it", () => {
    expect(redis.command?.join(" ")).toContain('--requirepass "$$REDIS_PASSWORD"');
    expect(healthcheckOf(redis)).toContain("REDISCLI_AUTH");
    expect(api.environment?.REDIS_URL).toMatch(
      /^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379$/,
    );
  });

  it("backs up on a schedule into a volume, kept a number of days, and can restore", () => {
    expect(backup.command).toEqual(["loop"]);
    expect(backup.volumes).toEqual(
      expect.arrayContaining([
        "./deploy/backup.sh:/usr/local/bin/backup.sh:ro",
        "backups:/backups",
      ]),
    );
    expect(Object.keys(backup.environment ?? {})).toEqual(
      expect.arrayContaining(["BACKUP_INTERVAL_HOURS", "BACKUP_KEEP_DAYS"]),
    );
    const script = read("deploy/backup.sh");
    expect(script).toMatch(/mongodump --config="\$config" --db="\$db" --gzip/);
    expect(script).toMatch(/-mmin "\+\$\(\(\$\{BACKUP_KEEP_DAYS:-14\} \* 1440\)\)" -delete/);
    expect(script).toMatch(/mongorestore .*--drop/);
    execFileSync("bash", ["-n", path.join(root, "deploy/backup.sh")]);
  });

  it("archives the uploaded files beside each dump, and restores them", () => {
    expect(backup.volumes).toEqual(expect.arrayContaining(["s3-data:/files-data"]));
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "backup-files-"));
    const [store, backups] = ["store", "backups"].map((name) => path.join(work, name));
    for (const dir of [store, backups]) fs.mkdirSync(dir);
    fs.mkdirSync(path.join(store, "buckets"));
    fs.writeFileSync(path.join(store, "buckets", "volume.dat"), "the bytes of a 2x2 photo");
    const env = { ...process.env, BACKUP_DIR: backups, FILES_DATA_DIR: store };
    const script = path.join(root, "deploy/backup.sh");
    try {
      execFileSync("bash", [script, "files-once"], { env });
      const [archive] = fs.readdirSync(backups);
      expect(archive).toMatch(/^files-\d{8}T\d{6}Z\.tar\.gz$/);
      // The store is lost, then written back from the archive.
      fs.writeFileSync(path.join(store, "buckets", "volume.dat"), "overwritten");
      fs.writeFileSync(path.join(store, "stray"), "not in the backup");
      execFileSync("bash", [script, "restore-files", path.join(backups, archive)], { env });
      expect(fs.readFileSync(path.join(store, "buckets", "volume.dat"), "utf8")).toBe(
        "the bytes of a 2x2 photo",
      );
      expect(fs.existsSync(path.join(store, "stray"))).toBe(false);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("gives every replica one S3-compatible store for files, encrypted at rest", () => {
    const s3 = compose.services.s3;
    expect(s3.environment).toMatchObject({
      AWS_ACCESS_KEY_ID: expect.stringContaining("S3_ACCESS_KEY_ID"),
      AWS_SECRET_ACCESS_KEY: expect.stringContaining("S3_SECRET_ACCESS_KEY"),
    });
    expect(s3.command).toContain("-filer.encryptVolumeData");
    expect(api.environment?.FILE_STORAGE_URL).toMatch(/^s3:\/\//);
    expect(api.environment?.S3_ENDPOINT).toBe("http://s3:8333");
    expect(api.depends_on).toHaveProperty("s3");
  });

  it("passes `docker compose config` where the compose plugin is installed", () => {
    let version: string;
    try {
      version = execFileSync("docker", ["compose", "version"], { stdio: "pipe" }).toString();
    } catch {
      return; // No compose plugin on this machine: the checks above read the file instead.
    }
    expect(version).toMatch(/Docker Compose/);
    const env = Object.fromEntries(required.map((name) => [name, `value-of-${name}`]));
    execFileSync(
      "docker",
      ["compose", "-f", path.join(root, "docker-compose.yml"), "config", "-q"],
      {
        env: { ...process.env, ...env, MONGO_REPLICA_KEY: "a".repeat(64) },
        stdio: "pipe",
      },
    );
  });
});

describe("scripts/compose-secrets.sh (npm run compose:secrets)", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "compose-secrets-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const run = (file: string) =>
    execFileSync("bash", [path.join(root, "scripts/compose-secrets.sh"), file]).toString();
  const valuesOf = (file: string) =>
    Object.fromEntries(
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null)
        .map((match) => [match[1], match[2]]),
    );

  it("generates every secret compose needs into .env, once", () => {
    const file = path.join(dir, ".env");
    expect(run(file)).toContain("created");
    const first = valuesOf(file);
    const generated = required.filter(
      (name) => !["APP_URL", "CORS_ORIGINS", "DOMAIN", "SMTP_URL"].includes(name),
    );
    for (const name of [...generated, "MONGO_REPLICA_KEY"])
      expect(first[name]).toMatch(/^\S{32,}$/);
    expect(first.MONGO_REPLICA_KEY).toMatch(/^[A-Za-z0-9+/=]{6,1024}$/);
    expect(Buffer.from(first.DATA_KEY, "base64")).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    expect(run(file)).not.toMatch(/^set /m);
    expect(valuesOf(file)).toEqual(first);
  });

  it("keeps what an operator already set", () => {
    const file = path.join(dir, ".env");
    fs.writeFileSync(
      file,
      "JWT_SECRET=mine-mine-mine-mine-mine-mine-mine-mine\nDOMAIN=api.example.org\n",
    );
    run(file);
    expect(valuesOf(file)).toMatchObject({
      JWT_SECRET: "mine-mine-mine-mine-mine-mine-mine-mine",
      DOMAIN: "api.example.org",
      REDIS_PASSWORD: expect.stringMatching(/^[0-9a-f]{48}$/),
    });
  });
});

describe("Dockerfile", () => {
  it("builds and runs on Node 22 LTS, while package.json still allows Node 20.19", () => {
    const images = [...read("Dockerfile").matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    expect(images).toEqual(["node:22-bookworm-slim", "node:22-bookworm-slim"]);
    const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines;
    expect(engines.node).toBe(">=20.19");
  });

  it("compiles the scripts into the image, with what they import, for data-key rotation there", () => {
    const dockerfile = read("Dockerfile");
    const build = dockerfile.slice(0, dockerfile.indexOf("npm run build"));
    for (const folder of ["src", "scripts", "tools/dev-db"]) {
      expect(build).toContain(`COPY ${folder} ./${folder}`);
    }
    const config = JSON.parse(read("tsconfig.build.json")) as { include: string[] };
    expect(config.include).toEqual(expect.arrayContaining(["src", "scripts", "tools/dev-db"]));
    expect(read("README.md")).toContain("dist/scripts/rotate-data-key.js");
  });
});
