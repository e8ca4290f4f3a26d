/**
 * The floor under Sofa and GraphQL execution: the routes the read suite and the bursts compare
 * with, written by hand in express over the service's own services, doing the same work (the
 * request shell of src/http/request-shell.ts, the same authentication and service calls) and
 * answering the same JSON, with nothing else. It runs inside the service's process
 * (service-with-floor.ts), so both share one heap, one pool and one process's luck.
 */
import express from "express";
import http from "node:http";
import { pipeline } from "node:stream/promises";
import type { Config } from "../src/config";
import { ok, paged } from "../src/graphql/envelopes";
import { expressServerOptions } from "../src/http/node-server";
import type { Logger } from "../src/logger";
import { OfficeSortBy, SortOrder } from "../src/modules/offices/office.input";
import type { Services } from "../src/services";
import { createObjectStorage } from "../src/storage/create-storage";
import { useRequestShell } from "../src/http/request-shell";
import {
  matchesIfNoneMatch,
  sendNotModified,
  sendPublicRead,
  versionEtag,
} from "../src/http/rest/public-cache";
import { SharedReads } from "../src/http/rest/shared-reads";
import type { StampedSource } from "../src/db/change-stamps";
import { EventSortBy } from "../src/modules/events/event.enums";
import { MemberStatus } from "../src/modules/members/member.enums";
import { User } from "../src/modules/users/user.type";

export function createFloorApp(services: Services, config: Config, log: Logger) {
  const app = express();
  useRequestShell(app, config, services, log);
  const paging = (req: express.Request) => ({
    page: Number(req.query.page ?? 1),
    limit: Number(req.query.limit ?? 10),
  });
  const signedIn = async (req: express.Request, res: express.Response): Promise<boolean> => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    try {
      if (!token) throw new Error("no token");
      await services.auth.authenticate(token);
      return true;
    } catch {
      res.status(401).json({ code: "UNAUTHENTICATED", message: "Sign in first" });
      return false;
    }
  };
  app.get("/offices", async (req, res) => {
    if (!(await signedIn(req, res))) return;
    const args = { ...paging(req), sortBy: OfficeSortBy.createdAt, sortOrder: SortOrder.desc };
    res.json(paged(await services.offices.list(args), "Office titles"));
  });
  // A public read as the service answers it without Sofa or GraphQL: the same public-read
  // bucket, version ETag and 304, the same sharing of one run among a version's readers, and the
  // same service call.
  const reads = new SharedReads();
  const publicRead =
    (operation: string, sources: StampedSource[], answer: (req: express.Request) => unknown) =>
    async (req: express.Request, res: express.Response) => {
      await services.rateLimits.consumePublicRead(req.ip ?? "unknown");
      const version = await services.changeStamps.version(sources);
      const etag = versionEtag(operation, req.query, version);
      if (matchesIfNoneMatch(req.headers["if-none-match"], etag)) {
        sendNotModified(res, etag);
        return;
      }
      const shared = await reads.answer(etag, async () => ({
        status: 200,
        headers: new Headers({ "content-type": "application/json; charset=utf-8" }),
        body: JSON.stringify(await answer(req)),
      }));
      sendPublicRead(req, res, shared.headers, shared.body, etag);
    };
  app.get(
    "/events/public",
    publicRead("publicEvents", ["events", "files"], async (req) => {
      const args = {
        ...paging(req),
        sortBy: (req.query.sortBy as EventSortBy | undefined) ?? EventSortBy.createdAt,
        sortOrder: (req.query.sortOrder as SortOrder | undefined) ?? SortOrder.desc,
      };
      return paged(await services.events.listPublic(args), "Events");
    }),
  );
  app.get("/offices/:id", async (req, res) => {
    if (!(await signedIn(req, res))) return;
    res.json(ok(await services.offices.get(req.params.id), "Office title"));
  });
  app.get(
    "/members/public/directory-locations",
    publicRead("directoryLocations", ["members"], async () =>
      ok(await services.memberPublic.directory(), "Member directory"),
    ),
  );
  // A sign-in as POST /auth/login answers it: the same AuthService call (the lockout, the
  // hashing queue, the account read by email, the session written), the refresh cookie, and the
  // account with its member profile and onboarding progress, as REST selects them.
  app.post("/auth/login", express.json(), async (req, res) => {
    const body = req.body as { email?: string; password?: string };
    const client = { ip: req.ip ?? null, userAgent: req.headers["user-agent"] ?? null };
    try {
      const result = await services.auth.login(body.email ?? "", body.password ?? "", client);
      if (result.kind !== "signed-in") throw new Error("the floor's account has no MFA");
      const user = result.user;
      const profile = await services.members.reads.profileOf(user._id);
      const progress =
        profile?.status === MemberStatus.APPROVED && profile.isActive
          ? await services.onboarding.progress.progressOfId(profile.id)
          : null;
      res.cookie("refreshToken", result.refreshToken, {
        httpOnly: true,
        sameSite: "strict",
        path: "/api/v1/auth",
        expires: result.refreshExpiresAt,
      });
      res.json({
        code: "OK",
        message: "Signed in",
        user: {
          ...User.from(user),
          memberProfile: profile && { ...profile, onboardingProgress: progress },
        },
        accessToken: result.accessToken,
      });
    } catch {
      res.status(401).json({ code: "INVALID_CREDENTIALS", message: "Invalid email or password" });
    }
  });
  return app;
}

const RAW_FILES_PATH = "/raw-files/";

/**
 * The floor on its own port, on the same node server as the service's (src/server.ts), with
 * the floor of a signed-link read asked first: `GET /raw-files/<key>` answered by a plain node
 * handler straight from the storage driver, with none of the service's work.
 */
export function listenFloor(app: express.Express, config: Config, port: number): http.Server {
  // A storage driver of its own over the service's FILE_STORAGE_URL: the same bytes.
  const storage = createObjectStorage(config);
  const handler: http.RequestListener = (req, res) => {
    if (req.method !== "GET" || !req.url?.startsWith(RAW_FILES_PATH)) {
      app(req, res);
      return;
    }
    storage.get(req.url.slice(RAW_FILES_PATH.length)).then(
      async (body) => {
        res.writeHead(200, { "content-type": "application/pdf" });
        await pipeline(body, res).catch(() => res.destroy());
      },
      () => res.writeHead(404).end(),
    );
  };
  return http.createServer(expressServerOptions(app), handler).listen(port, config.host);
}
