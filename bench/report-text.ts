/** The report's section "By member count", and where the member reads pass their target. */
import { MEMBER_READS, type MemberReadKey } from "./member-reads";
import type { ReportInput, SizeResult } from "./report-input";
import { count, heading, TARGET } from "./report-sections";

const slowest = (size: SizeResult) =>
  Math.max(...Object.values(size.reads).map((read) => read.result.p95));

/**
 * The member count at which the slowest member read's p95 reaches the target, on a straight
 * line between the two measured counts around it; null when no measured count reaches it.
 */
export function crossing(sizes: SizeResult[], limitMs: number): number | null {
  for (let index = 0; index + 1 < sizes.length; index += 1) {
    const [low, high] = [sizes[index], sizes[index + 1]];
    const [from, to] = [slowest(low), slowest(high)];
    if (from < limitMs && to >= limitMs) {
      return low.members + ((limitMs - from) * (high.members - low.members)) / (to - from);
    }
  }
  return sizes.length > 0 && slowest(sizes[0]) >= limitMs ? sizes[0].members : null;
}

export function bySizeSection(input: ReportInput): string[] {
  const cell = (size: SizeResult, key: MemberReadKey) => {
    const { result } = size.reads[key];
    return `${result.p50} / ${result.p95}${result.failures > 0 ? ` (${result.failures} failed)` : ""}`;
  };
  const rows = input.sizes.map(
    (size) =>
      `| ${count(size.members)} | ${MEMBER_READS.map((read) => cell(size, read.key)).join(" | ")} | ${size.reads.list.result.total} | ${size.serviceRssMb} MB | ${size.engineRssMb === null ? "?" : `${size.engineRssMb} MB`} |`,
  );
  const at = crossing(input.sizes, TARGET.memberReadP95Ms);
  const first = input.sizes[0];
  const verdict =
    at === null
      ? `The slowest of the three stayed under ${TARGET.memberReadP95Ms} ms at every measured count.`
      : at === first?.members && slowest(first) >= TARGET.memberReadP95Ms
        ? `The slowest of the three was over ${TARGET.memberReadP95Ms} ms already at ${count(at)} members.`
        : `The slowest of the three reaches ${TARGET.memberReadP95Ms} ms at about ${count(at)} members on this engine (on a straight line between the measured counts around it): from there, run the service on MongoDB (docker-compose.yml), whose indexes keep these reads independent of the count.`;
  return [
    ...heading("By member count"),
    "The same member reads at each count, one request at a time (p50 / p95 in ms), and the resident memory of the service and of the engine right after them.",
    "",
    `| Members | ${MEMBER_READS.map((read) => `${read.name} p50 / p95 ms`).join(" | ")} | Requests each | Service RSS | Engine RSS |`,
    `|---:|${MEMBER_READS.map(() => "---:|").join("")}---:|---:|---:|`,
    ...rows,
    "",
    verdict,
  ];
}
