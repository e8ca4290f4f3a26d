import { measure, type LoadSpec } from "./load";
import type { Measured } from "./report-sections";
import type { Session } from "./scenario";

/** The reads whose latency grows with the membership on an engine that scans. */
export type MemberReadKey = "list" | "search" | "users";

interface MemberRead {
  key: MemberReadKey;
  name: string;
  spec: (session: Session) => LoadSpec;
}

const asAdmin = (session: Session) => ({ authorization: `Bearer ${session.adminToken}` });
/** At 100 000 members on the development engine an answer takes seconds, more on a busy machine. */
const TIMEOUT_SECONDS = 300;

export const MEMBER_READS: readonly MemberRead[] = [
  {
    key: "list",
    name: "GET /members",
    spec: (session) => ({
      url: `${session.baseUrl}/api/v1/members`,
      headers: asAdmin(session),
      connections: 1,
    }),
  },
  {
    key: "search",
    name: "GET /members?search=… (varied)",
    spec: (session) => {
      let next = 0;
      return {
        url: `${session.baseUrl}/api/v1/members`,
        headers: asAdmin(session),
        connections: 1,
        setupRequest: (request) => ({
          ...request,
          // Encoded: a prefix such as "de g" holds a space, which would break the request line.
          path: `/api/v1/members?search=${encodeURIComponent(session.searchTerms[next++ % session.searchTerms.length])}`,
        }),
      };
    },
  },
  {
    key: "users",
    name: "GET /users",
    spec: (session) => ({
      url: `${session.baseUrl}/api/v1/users`,
      headers: asAdmin(session),
      connections: 1,
    }),
  },
];

export type MemberReads = Record<MemberReadKey, Measured>;

/**
 * Each member read `samples` times, one at a time (what one administrator waits for). A fixed
 * number of requests rather than a duration: at 100 000 members one request can take a
 * minute, and the memory comparison needs the same load at every size. Nothing is sent
 * unmeasured first: opening the session already listed members and offices, and on this
 * engine a warm-up request at 100 000 members would cost as much as a measured one.
 */
export async function measureMemberReads(session: Session, samples: number): Promise<MemberReads> {
  const measured: Partial<MemberReads> = {};
  for (const read of MEMBER_READS) {
    const spec = { ...read.spec(session), timeoutSeconds: TIMEOUT_SECONDS };
    const result = await measure({ ...spec, amount: samples });
    measured[read.key] = { name: read.name, via: "REST", connections: 1, result };
  }
  return measured as MemberReads;
}
