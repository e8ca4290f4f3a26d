import type { Request, Response } from "express";
import { AppError, BadRequestError } from "../errors/app-errors";
import { toErrorResponse } from "../errors/error-mapper";
import { assertAccess } from "../graphql/access";
import type { RequestContext } from "../graphql/context";
import type { SiteUploaderSlug } from "../modules/files/site-upload-slugs";
import type { FileRoute } from "./file-route";
import { closingOnTooLarge, readMultipartUpload } from "./multipart-upload";

export type FileHandler = (req: Request, res: Response, route: FileRoute) => Promise<void>;

/**
 * The organisation's site's upload protocol (docs/web-client.md, "Uploads") over HTTP: the presign
 * POST at each uploader's URL (JSON in, links out, refusals as `{code, message}`), HEAD and PUT
 * on a link. The PUT's refusals also carry their message as `error`: the site's client reads
 * that from the JSON of a failed PUT.
 */
export function siteUploadHandlers(
  buildContext: (req: Request, res: Response) => Promise<RequestContext>,
  limits: { maxBytes: number },
): Record<"presign" | "ingestHead" | "ingest", FileHandler> {
  return {
    presign: async (req, res, route) => {
      const context = await buildContext(req, res);
      assertAccess(context, []);
      const links = await context.services.siteUploads.presign(context.caller!, {
        uploader: route.uploader as SiteUploaderSlug,
        actionType: req.query.actionType,
        slug: req.query.slug,
        body: req.body,
        origin: originOf(req),
      });
      res.status(route.success.status).json(links);
    },

    ingestHead: async (req, res) => {
      const context = await buildContext(req, res);
      const held = await context.services.siteUploads.bytesReceived(
        String(req.params.ticket),
        linkOf(req),
      );
      res.status(200).setHeader("x-ut-range-start", String(held)).end();
    },

    ingest: async (req, res, route) => {
      try {
        const context = await buildContext(req, res);
        const range = req.headers.range?.trim();
        if (range !== undefined && !/^bytes=0-\d*$/.test(range)) {
          throw new BadRequestError("This link takes the whole file from its first byte");
        }
        const answer = await closingOnTooLarge(res, () =>
          context.services.siteUploads.ingest(
            String(req.params.ticket),
            { link: linkOf(req), caller: context.caller, origin: originOf(req) },
            (receive) => readMultipartUpload(req, receive, limits.maxBytes),
          ),
        );
        res.status(route.success.status).json(answer);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const { status, body, headers } = toErrorResponse(error, { exposeDetail: false });
        res
          .status(status)
          .set(headers ?? {})
          .json({ ...body, error: body.message });
      }
    },
  };
}

const linkOf = (req: Request) => ({ expires: req.query.expires, signature: req.query.signature });

/** Where the request came to, as its client named it (behind a trusted proxy, as forwarded). */
const originOf = (req: Request) => `${req.protocol}://${req.host ?? "localhost"}`;
