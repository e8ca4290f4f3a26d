import { measure, type LoadSpec } from "./load";
import { log } from "./options";
import { childPid, residentMb } from "./processes";
import type { Measured } from "./report-sections";
import { get, type At, type Session } from "./scenario";

export type MemberReadKey = (typeof MEMBER_READS)[number]["key"];
export type MemberReads = Record<MemberReadKey, Measured>;

/** The reads whose latency grows with the membership on an engine that scans. */
export const MEMBER_READS = [
  { key: "list", name: "GET /members", spec: get("/members", { admin: true }) },
  {
    key: "search",
    name: "GET /members?search=… (varied)",
    spec: (session: Session, connections: number): LoadSpec => {
      let next = 0;
      const term = () => session.searchTerms[next++ % session.searchTerms.length];
      return {
        ...get("/members", { admin: true })(session, connections),
        // Encoded: a prefix such as "de g" holds a space, which would break the request line.
        setupRequest: (request) => ({
          ...request,
          path: `/api/v1/members?search=${encodeURIComponent(term())}`,
        }),
      };
    },
  },
  { key: "users", name: "GET /users", spec: get("/users", { admin: true }) },
] as const;

/**
 * Each member read `samples` times, one at a time (what one administrator waits for): a count
 * rather than a time, since at 100 000 members one can take a minute and the memory needs the
 * same load at every count. Opening the session already listed members and offices.
 */
export async function measureMemberReads(session: Session, samples: number): Promise<MemberReads> {
  const measured: Partial<MemberReads> = {};
  for (const read of MEMBER_READS) {
    // At 100 000 members on the development engine an answer takes seconds.
    const spec = read.spec(session, 1);
    const result = await measure({ ...spec, timeoutSeconds: 300, amount: samples });
    measured[read.key] = { name: read.name, via: "REST", connections: 1, result };
  }
  return measured as MemberReads;
}

/**
 * The member reads at one count, and the service's and the engine's resident memory right after
 * (the engine's null when it could not be read).
 */
export async function readsAt({ engine, service, session, members, options }: At) {
  const reads = await measureMemberReads(session, options.sizeSamples);
  const enginePid = childPid(engine.kind);
  const size = {
    members,
    reads,
    serviceRssMb: residentMb(service.pid),
    engineRssMb: enginePid === null ? null : residentMb(enginePid),
  };
  for (const read of Object.values(reads)) {
    log(`${members} ${read.name}: p50 ${read.result.p50} ms, p95 ${read.result.p95} ms`);
  }
  log(`${members}: RSS ${size.serviceRssMb} MB (engine ${size.engineRssMb} MB)`);
  return size;
}
