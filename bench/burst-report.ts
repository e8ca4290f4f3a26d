/**
 * The report's part on two things a request costs beyond its reads: REST's CPU per answer on a
 * title by id against the floor's, and a burst of sign-ins against what the cores allow.
 */
import { fixed, median, type Measured, type Verdicts } from "./report-sections";
import type { ReportInput, SizeResult } from "./report-input";
import type { BurstResult, BurstSide } from "./sign-in-burst";
import { BURST_SHARE_TARGET, REST_CPU_RATIO_TARGET } from "./targets";
import { WHY } from "./why-missed";

const count = (members: number) => members.toLocaleString("en");

/** REST's CPU per answer over the floor's in one group, each run's and their median. */
function cpuRatio(runs: Measured[][], group: string): { ratio: number; runs: number[] } | null {
  const each = runs.flatMap((run) => {
    const of = (via: Measured["via"]) =>
      run.find((m) => m.group === group && m.via === via)?.result.cpuMicrosPerRequest;
    const [rest, floor] = [of("REST"), of("floor")];
    return rest && floor ? [rest / floor] : [];
  });
  return each.length === 0 ? null : { ratio: median(each), runs: each };
}

/** The target rows: REST's CPU on a title by id, then the burst at each count it ran at. */
export function costRows(input: ReportInput, verdicts: Verdicts): string[] {
  const rows: string[] = [];
  const office = cpuRatio(input.readRuns, "office by id");
  if (office) {
    rows.push(
      `| office by id: REST's service CPU per answer ≤ ${REST_CPU_RATIO_TARGET} × the floor's | ${fixed(office.ratio)} × (runs: ${office.runs.map((r) => fixed(r)).join(", ")}) | ${verdicts.verdict(office.ratio <= REST_CPU_RATIO_TARGET, WHY.cpu)} |`,
    );
  }
  const bursts = input.sizes.filter((size) => size.burst);
  for (const size of bursts) {
    const b = size.burst!;
    rows.push(
      `| ${b.count} sign-ins at once ≥ ${BURST_SHARE_TARGET} × cores ÷ one hash, ${count(size.members)} members | ${fixed(b.rest.perSecond)}/s against ${fixed(b.bound)}/s = ${fixed(b.rest.share)}; the floor ${fixed(b.floor.share)}; per sign-in the engine's CPU ${ms(b.rest.engineCpuMs)}, one hash ${ms(b.hashMs)} | ${verdicts.verdict(b.rest.share >= BURST_SHARE_TARGET, WHY.burst(bursts, input.engine))} |`,
    );
  }
  return rows;
}

const ms = (value: number | null) => (value === null ? "?" : `${Math.round(value)} ms`);

/** The bursts' section: each count, REST and the floor, and where their CPU went. */
export function burstSection(sizes: SizeResult[]): string[] {
  const bursts = sizes.filter((size) => size.burst);
  if (bursts.length === 0) return [];
  const row = (members: number, b: BurstResult, route: string, side: BurstSide) =>
    `| ${count(members)} | ${route} | ${side.answered} of ${b.count} | ${fixed(side.seconds)} s | ${fixed(side.perSecond)} | ${ms(b.hashMs)} | ${fixed(b.bound)} | ${fixed(side.share)} | ${ms(side.serviceCpuMs)} | ${ms(side.engineCpuMs)} |`;
  return [
    "",
    "## Sign-in bursts",
    "",
    "A burst sends its sign-ins at once for one demo member, each on a connection of its own,",
    "after one unmeasured sign-in (bench/sign-in-burst.ts); then the same burst goes to the",
    "hand-written floor's POST /auth/login, which makes the same AuthService call and reads the",
    "same member profile without Sofa or GraphQL. One bcryptjs hash at the service's cost is",
    "timed in the benchmark's process before and after (their mean); cores ÷ that time is what",
    "the machine allows when every core hashes. The CPU columns are per answered sign-in, from",
    "/proc: the service's process (its hashing threads included) and the engine's.",
    "",
    "| Members | Route | Answered | Time | Sign-ins/s | One hash | Cores ÷ hash | Share | Service CPU | Engine CPU |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...bursts.flatMap((size) => {
      const b = size.burst!;
      return [row(size.members, b, "REST", b.rest), row(size.members, b, "floor", b.floor)];
    }),
  ];
}
