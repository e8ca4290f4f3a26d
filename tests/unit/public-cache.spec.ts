import { Query, Resolver, buildSchemaSync } from "type-graphql";
import { Authorized } from "../../src/graphql/access";
import { Rest, restRoutes } from "../../src/graphql/rest-route";
import { matchesIfNoneMatch, strongEtag } from "../../src/http/rest/public-cache";
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
