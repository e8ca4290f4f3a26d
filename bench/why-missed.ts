import type { PageVsDriver } from "./driver-alone";
import type { LoadResult } from "./load";
import type { ReportInput, SizeResult } from "./report-input";
import { ratioText, rps, type ApolloAlone } from "./report-sections";

const meanMs = (result: LoadResult) => (1000 / Math.max(result.requestsPerSecond, 1e-9)).toFixed(1);

/** Why a target can miss on this machine; shown only for a target that was missed. */
export const WHY = {
  memberReads: (input: ReportInput) => ({
    title: "Member reads on the development engine",
    why:
      input.engine === "ferretdb"
        ? `FerretDB v1 uses no index but \`_id\`: for each of these requests the engine reads and decodes every member record (for GET /users, every account) to find the page, and again to count them, filters them and sorts the matches in memory. At ${input.options.targetSize.toLocaleString("en")} members the page's queries through the driver alone took ${meanMs(input.page.driver)} ms on average (section "A member page against the driver alone"), so the time is the engine's scans, and it grows in step with the membership (table "By member count"). MongoDB answers the same queries from the declared indexes (section "Capacity plan for MongoDB")`
        : `The engine (${input.engine}) took ${meanMs(input.page.driver)} ms on average for a page's queries through the driver alone (section "A member page against the driver alone")`,
  }),
  page: (page: PageVsDriver) => ({
    title: "A member page against the driver alone",
    why: `Through the service a page took ${meanMs(page.service)} ms on average, through the driver alone ${meanMs(page.driver)} ms. The service adds HTTP, the two reads by \`_id\` of every signed-in request (its account and session), Sofa and GraphQL execution, mongoose's query building and presenting the records; the engine serves the two extra reads on the same cores as everything else`,
  }),
  ratio: (apollo: ApolloAlone | undefined) => ({
    title: "Ratios to the floor",
    why: `The floor does only the request shell, authentication and the service call, so what an interface adds per request weighs against little: about ${apollo ? `${Math.round(apollo.floorUs)} µs` : "150–200 µs"} of the service's CPU for a signed-in title by id${apollo ? " in this run" : ""}. REST runs Sofa, mounted as its documentation shows, behind the route's gate: it adds the gate's argument checks, Sofa's router matching the path again through a fetch Request, its handler and fetch Response, and graphql-js execution with its resolvers and scalars. /graphql adds Apollo Server, which the architecture requires there: its request pipeline (the hash of the query text that finds its parsed document, the plugin hooks of every stage, content negotiation, the response's serialisation) and the JSON body read through body-parser. ${apollo ? `Measured in the same process as CPU time per answer (section "What Apollo alone costs" below): /graphql took ${Math.round(apollo.graphqlUs - apollo.floorUs)} µs more than the floor for a title by id, and the service's Apollo set-up by itself, over a resolver that returns a constant, ${Math.round(apollo.apolloUs - apollo.expressUs)} µs more than an express route reading the same body and answering the same JSON; that addition alone on the floor's ${Math.round(apollo.floorUs)} µs would leave /graphql at about ${ratioText(apollo.onlyApollo)} × the floor. ` : ""}Within one run the ratios still move by about a tenth from turn to turn with the machine's drift`,
  }),
  offices: (floor: LoadResult) => ({
    title: "GET /offices p99 at 100 connections",
    why: `A hundred connections, each sending its next request as soon as the last is answered, wait on each other: the mean time to an answer is 100 ÷ the answers per second, so a p99 under 25 ms needs well over 4 000 answers/s. Every GET /offices reads the titles from the engine, which on FerretDB scans their collection (and, before it, the appointments for lapsed terms), so the requests queue at the engine, on the two cores it shares with the service and the load generator. The same reads without Sofa or GraphQL do not get there either: the hand-written floor's GET /offices at 100 connections, measured right after, had a p99 of ${floor.p99} ms at ${rps(floor)} req/s`,
  }),
  rss: {
    title: "Memory",
    why: "Nothing of a collection is kept in the service, so what grows with the membership is what the requests held at the moment of reading or how V8 sized its heap; a heap snapshot after the same load at both counts would tell which",
  },
  cpu: {
    title: "REST's CPU per answer",
    why: "REST runs Sofa behind the route's gate: Sofa's request layer (its fetch Request and Response, its router matching the path again) and graphql-js execution with its resolvers and scalars, on a title by id whose floor does little else than authenticate and read; section \"What Apollo alone costs\" shows the floor's CPU per answer in the same run",
  },
  burst: (bursts: SizeResult[], engine: string) => {
    const [first, last] = [bursts[0], bursts[bursts.length - 1]];
    const b = last.burst!;
    const at = (size: SizeResult) => size.members.toLocaleString("en");
    const engineMs = (size: SizeResult) => Math.round(size.burst!.rest.engineCpuMs ?? NaN);
    const reads =
      engine === "ferretdb"
        ? "Each sign-in sends, besides its hash, `find users {email}`, `insert sessions` and `find members {userId: {$in: [...]}}` for the member profile of the answer. FerretDB v1 answers both finds by reading and decoding every account and every member record, on the cores the hashing threads need: "
        : `Besides its hash, each sign-in reads the account by email and the member profile on the engine (${engine}), on the same cores: `;
    return {
      title: "Sign-in bursts on the development engine",
      why:
        `${reads}at ${at(last)} members the engine spent ${engineMs(last)} ms of CPU per sign-in against one hash's ${Math.round(b.hashMs)} ms, and the hand-written floor, making the same service call without Sofa or GraphQL, reached ${b.floor.share.toFixed(2)} of the bound where REST reached ${b.rest.share.toFixed(2)} (section "Sign-in bursts")` +
        (first !== last
          ? `. At ${at(first)} members (${engineMs(first)} ms of the engine's CPU per sign-in) REST reached ${first.burst!.rest.share.toFixed(2)}`
          : "") +
        ". On MongoDB both finds read one key of an index (the unique index on `email`, and `{userId, createdAt}`)",
    };
  },
  storm: {
    title: "Login storm",
    why: "The hashing threads leave one core to the event loop; with two cores that is all there is",
  },
};
