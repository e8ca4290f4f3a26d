import { Query, Resolver, buildSchemaSync } from "type-graphql";
import { Authorized } from "../../src/graphql/access";
import { Rest, restRoutes } from "../../src/graphql/rest-route";
import { matchesIfNoneMatch, strongEtag, versionEtag } from "../../src/http/rest/public-cache";
import { SharedReads, type SharedAnswer } from "../../src/http/rest/shared-reads";
import { NotAudited } from "../../src/modules/audit/audited-operations";

/** Pure rules of the public-read mechanism: no app, no database. */

@Resolver()
class PrivateCachedResolver {
  @Rest("GET", "/secrets", { tag: "Members", publicCache: true })
  @NotAudited("a test")
  @Authorized()
  @Query(() => String)
  secrets(): string {
    return "mine";
  }
}

@Resolver()
class SourcedResolver {
  @Rest("GET", "/tidings", { tag: "Members", publicCache: { sources: ["news_posts"] } })
  @NotAudited("a test")
  @Query(() => String)
  tidings(): string {
    return "for all";
  }
}

@Resolver()
class PublicCachedResolver {
  @Rest("GET", "/notices", { tag: "Members", publicCache: true })
  @NotAudited("a test")
  @Query(() => String)
  notices(): string {
    return "for all";
  }
}

const build = (resolver: new () => object) =>
  buildSchemaSync({ resolvers: [resolver], authChecker: () => true });

describe("publicCache on @Rest", () => {
  it("is refused on a read that needs a caller: a cache would hand one caller's answer to the next", () => {
    expect(() => restRoutes(build(PrivateCachedResolver))).toThrow(
      "Query.secrets: publicCache is for public GET routes only",
    );
  });

  it("is kept on the route of a public read", () => {
    expect(restRoutes(build(PublicCachedResolver))[0].publicCache).toBe(true);
    expect(restRoutes(build(SourcedResolver))[0].publicCache).toEqual({ sources: ["news_posts"] });
  });
});

describe("ETag and If-None-Match", () => {
  const etag = strongEtag('{"code":"OK"}');

  it("makes a strong, quoted tag that changes with any byte", () => {
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(strongEtag('{"code":"OK" }')).not.toBe(etag);
  });

  it("matches the tag itself, its weak form, a list holding it and *", () => {
    for (const header of [etag, `W/${etag}`, `"a", ${etag}`, ` * `])
      expect(matchesIfNoneMatch(header, etag)).toBe(true);
  });

  it("does not match absent, other or unquoted tags", () => {
    for (const header of [undefined, "", '"other"', etag.slice(1, -1)])
      expect(matchesIfNoneMatch(header, etag)).toBe(false);
  });
});

describe("the version ETag", () => {
  const tag = versionEtag("Query.events", { page: 1, limit: 5 }, "v1");

  it("is weak: it names a version of the answer, not its bytes", () => {
    expect(tag).toMatch(/^W\/"[\w-]{32}"$/);
  });

  it("is the same for the same arguments in any order, and differs by operation, argument or version", () => {
    expect(versionEtag("Query.events", { limit: 5, page: 1 }, "v1")).toBe(tag);
    for (const other of [
      versionEtag("Query.news", { page: 1, limit: 5 }, "v1"),
      versionEtag("Query.events", { page: 2, limit: 5 }, "v1"),
      versionEtag("Query.events", { page: 1, limit: 5, search: "x" }, "v1"),
      versionEtag("Query.events", { page: 1, limit: 5 }, "v2"),
    ])
      expect(other).not.toBe(tag);
  });

  it("is matched by its weak or strong form in If-None-Match", () => {
    for (const header of [tag, tag.slice(2), `"a", ${tag}`])
      expect(matchesIfNoneMatch(header, tag)).toBe(true);
    expect(matchesIfNoneMatch('W/"other"', tag)).toBe(false);
  });
});

describe("SharedReads", () => {
  /** A run that ends when the test says so, counting how often it was started. */
  const gatedRun = () => {
    let release!: (answer: SharedAnswer) => void;
    let fail!: (error: Error) => void;
    let starts = 0;
    const make = () => {
      starts += 1;
      return new Promise<SharedAnswer>((resolve, reject) => {
        release = resolve;
        fail = reject;
      });
    };
    return {
      make,
      release: (a: SharedAnswer) => release(a),
      fail: (e: Error) => fail(e),
      starts: () => starts,
    };
  };
  const answer = (body: string): SharedAnswer => ({ status: 200, headers: new Headers(), body });

  it("runs once for the readers of one version while it runs, and gives each the same answer", async () => {
    const reads = new SharedReads();
    const run = gatedRun();
    const readers = Array.from({ length: 5 }, () => reads.answer("v1", run.make));
    expect(run.starts()).toBe(1);
    run.release(answer("directory"));
    const answers = await Promise.all(readers);
    expect(answers.map((a) => a.body)).toEqual(Array(5).fill("directory"));
  });

  it("holds nothing once the run ended: the next reader of the same version runs again", async () => {
    const reads = new SharedReads();
    const first = gatedRun();
    const a = reads.answer("v1", first.make);
    first.release(answer("one"));
    await a;
    const second = gatedRun();
    const b = reads.answer("v1", second.make);
    expect(second.starts()).toBe(1);
    second.release(answer("two"));
    expect((await b).body).toBe("two");
  });

  it("runs another version on its own, and a failed run fails its readers only", async () => {
    const reads = new SharedReads();
    const old = gatedRun();
    const fresh = gatedRun();
    const oldReaders = [reads.answer("v1", old.make), reads.answer("v1", old.make)];
    const freshReader = reads.answer("v2", fresh.make);
    expect([old.starts(), fresh.starts()]).toEqual([1, 1]);
    old.fail(new Error("engine gone"));
    for (const reader of oldReaders) await expect(reader).rejects.toThrow("engine gone");
    fresh.release(answer("v2 page"));
    expect((await freshReader).body).toBe("v2 page");
    const retry = gatedRun();
    const again = reads.answer("v1", retry.make);
    expect(retry.starts()).toBe(1);
    retry.release(answer("v1 page"));
    expect((await again).body).toBe("v1 page");
  });
});
