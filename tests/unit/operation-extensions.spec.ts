import { graphql } from "graphql";
import { Arg, buildSchemaSync, Mutation, Query, Resolver } from "type-graphql";
import { InvalidTokenError } from "../../src/errors/app-errors";
import { accessOf, Authorized } from "../../src/graphql/access";
import { Rest, restRoutes } from "../../src/graphql/rest-route";
import { CurrentCaller, type Caller } from "../../src/modules/auth/caller";
import { auditOperations, NotAudited } from "../../src/modules/audit/audited-operations";
import { Role } from "../../src/modules/users/role";

/** Pure rules of the operation decorators: no app, no database. */

@Resolver()
class DecoratedResolver {
  @Rest("GET", "/things/:id", { tag: "Members" })
  @NotAudited("a test")
  @Query(() => String)
  thing(@Arg("id") id: string): string {
    return id;
  }

  @Rest("GET", "/things/mine", { tag: "Members" })
  @NotAudited("a test")
  @Authorized()
  @Query(() => String)
  myThing(): string {
    return "mine";
  }

  @Rest("POST", "/things/create", { tag: "Members", status: 201 })
  @NotAudited("a test")
  @Authorized(Role.ADMIN)
  @Mutation(() => String)
  createThing(): string {
    return "made";
  }
}

@Resolver()
class BareResolver {
  @Query(() => String)
  bare(): string {
    return "bare";
  }
}

@Resolver()
class TwinResolver {
  @Rest("GET", "/twins", { tag: "Members" })
  @Query(() => String)
  one(): string {
    return "one";
  }

  @Rest("GET", "/twins", { tag: "Members" })
  @Query(() => String)
  two(): string {
    return "two";
  }
}

@Resolver()
class CallerResolver {
  @Query(() => String)
  whoAmI(@CurrentCaller() caller: Caller): string {
    return caller.id;
  }
}

const build = (resolver: new () => object) =>
  buildSchemaSync({ resolvers: [resolver], authChecker: () => true });

describe("routes read off the built schema", () => {
  it("give each root field its @Rest route, literal segments before parameters", () => {
    const routes = restRoutes(build(DecoratedResolver));
    expect(routes.map((r) => [r.operation, r.method, r.path, r.status])).toEqual([
      ["Mutation.createThing", "POST", "/things/create", 201],
      ["Query.myThing", "GET", "/things/mine", 200],
      ["Query.thing", "GET", "/things/:id", 200],
    ]);
  });

  it("refuse a root field without @Rest, naming it", () => {
    expect(() => restRoutes(build(BareResolver))).toThrow("Query.bare has no REST route");
  });

  it("refuse two operations on one method and path", () => {
    expect(() => restRoutes(build(TwinResolver))).toThrow("both claim GET /twins");
  });

  it("refuse a root field without an audit decision, naming it", () => {
    expect(() => auditOperations(build(DecoratedResolver))).not.toThrow();
    expect(() => auditOperations(build(BareResolver))).toThrow("Query.bare has no audit decision");
  });

  it("read each field's access from its @Authorized", () => {
    const fields = restRoutes(build(DecoratedResolver)).map((r) => [
      r.field.name,
      accessOf(r.field),
    ]);
    expect(Object.fromEntries(fields)).toEqual({
      thing: "public",
      myThing: "signed-in",
      createThing: [Role.ADMIN],
    });
  });
});

describe("@CurrentCaller()", () => {
  const schema = build(CallerResolver);
  const ask = (contextValue: object) => graphql({ schema, source: "{ whoAmI }", contextValue });

  it("hands the resolver the request's caller", async () => {
    const caller = { id: "caller-1" } as Caller;
    expect((await ask({ caller })).data).toEqual({ whoAmI: "caller-1" });
  });

  it("refuses a request without one: 401, or why its token was refused", async () => {
    const anonymous = await ask({});
    expect(anonymous.errors?.[0].originalError).toMatchObject({ code: "UNAUTHENTICATED" });
    const refused = await ask({ authError: new InvalidTokenError("expired") });
    expect(refused.errors?.[0].originalError).toMatchObject({ code: "INVALID_TOKEN" });
  });
});
