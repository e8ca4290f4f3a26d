/** The benchmark's options (`npm run bench -- --flag=value`, bench/run.ts) and its log. */
import path from "node:path";

export const log = (line: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

export type BenchOptions = ReturnType<typeof parseBenchArguments>;

export function parseBenchArguments(argv: string[]) {
  const flags = new Map(
    argv.map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key, value ?? "true"] as const;
    }),
  );
  const smoke = flags.get("smoke") === "true";
  const whole = (name: string, raw: string) => {
    if (!/^\d+$/.test(raw)) throw new Error(`--${name} must be a whole number, got "${raw}"`);
    return Number(raw);
  };
  const number = (name: string, fallback: number) => {
    const raw = flags.get(name);
    return raw === undefined ? fallback : whole(name, raw);
  };
  const sizesFlag = flags.get("sizes");
  // Each member count is a database of its own, smallest first.
  const sizes = (
    sizesFlag
      ? sizesFlag.split(",").map((size) => whole("sizes", size))
      : smoke
        ? [100, 300]
        : [1_000, 10_000, 100_000]
  ).sort((a, b) => a - b);
  // The count the targets are judged at and the interfaces measured at.
  const targetSize = number("target", smoke ? 300 : sizes.includes(10_000) ? 10_000 : sizes[0]);
  if (!sizes.includes(targetSize)) throw new Error(`--target=${targetSize} is not in --sizes`);
  return {
    sizes,
    targetSize,
    /** Requests of each member read at every count (the same load before reading the memory). */
    sizeSamples: number("samples", smoke ? 3 : 2),
    /** Further requests of each member read at the target count, for its verdicts. */
    targetSamples: smoke ? 5 : 6,
    pageTurns: smoke ? 2 : 3,
    pagesPerTurn: 2,
    durationSeconds: number("duration", smoke ? 1 : 4),
    runs: number("runs", smoke ? 1 : 3),
    out: path.resolve(flags.get("out") ?? "docs/performance.md"),
    dataDir: path.resolve(flags.get("data-dir") ?? path.join("bench", ".data")),
    smoke,
    only: flags.get("only")?.toLowerCase() ?? null,
    // The read scenarios': every office and branch read scans its collection on the
    // development engine, so more connections only queue there.
    connections: number("connections", 4),
    /** GET /offices's latency target's. */
    targetConnections: smoke ? 4 : 100,
    /** The anonymous public pages', as a busy home page sees them. */
    publicConnections: number("public-connections", smoke ? 4 : 50),
    logins: smoke ? 2 : 20,
    applications: number("applications", smoke ? 10 : 500),
    /** Sign-ins sent at once by the burst, at every count up to the target. */
    burstSize: smoke ? 4 : 20,
  };
}
