import express, { type Request, type Response, type NextFunction } from "express";
import path from "node:path";

const moduleDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

export interface ExplorerOptions {
  /** A line across the top of the page (the mock says it is one). */
  banner?: string;
}

/**
 * The operation GraphiQL opens on: it runs as it is once the Headers pane holds a token (the
 * template below), and shows the shape of a paged list. Anonymous on purpose: GraphiQL keeps
 * a named operation's name for a moment after the text is replaced, and would then ask the
 * server for an operation no longer in the document.
 */
export const GRAPHIQL_DEFAULT_QUERY = `# Sign in (POST /api/v1/auth/login, or the login mutation), then put the accessToken
# into the Headers pane below and run this with the play button.
{
  offices(limit: 5, sortBy: level, sortOrder: asc) {
    data { id name level maxSlots activeHolders }
    pagination { totalCount hasNextPage }
  }
}
`;
export const GRAPHIQL_DEFAULT_HEADERS = `{
  "Authorization": "Bearer <accessToken>"
}`;

/**
 * Swagger UI for the REST paths and GraphiQL for /graphql, both from files in node_modules
 * (no CDN: they must work on a closed network). The start-up code sits in small scripts of
 * our own rather than inline, so the Content-Security-Policy needs no 'unsafe-inline' scripts.
 */
export function swaggerUi(openApiUrl: string, options: ExplorerOptions = {}): express.Router {
  const router = express.Router();
  router.get("/", (req, res) => {
    // Relative asset URLs need the trailing slash.
    if (!req.originalUrl.split("?")[0].endsWith("/")) return res.redirect(301, `${req.baseUrl}/`);
    sendPage(res, swaggerPage(options.banner));
  });
  router.get("/init.js", (_req, res) => {
    res
      .type("application/javascript")
      .send(
        `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(openApiUrl)}, dom_id: "#swagger-ui", deepLinking: true, persistAuthorization: true });\n`,
      );
  });
  // The package's directory, found without loading its main module: that module requires the
  // whole browser bundle into the process, and keeps it in the heap, only to export this path.
  router.use(
    "/assets",
    express.static(moduleDir("swagger-ui-dist"), { index: false, maxAge: "1d" }),
  );
  return router;
}

/**
 * The service's icon (16x16 PNG: a white cross on blue), at /favicon.ico where browsers ask for
 * it unprompted and where both explorer pages name it, so neither shows a 404 in the console.
 */
const FAVICON = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAJUlEQVR42mOQs+oiCTFQQcN/JDDENPzHCwZEw3AIVvI1UDm1AgBNCW0GA7EUawAAAABJRU5ErkJggg==",
  "base64",
);

export function favicon(_req: Request, res: Response): void {
  res.type("png").set("cache-control", "public, max-age=86400").send(FAVICON);
}

export function graphiqlAssets(): express.Router {
  const router = express.Router();
  router.get("/explorer.js", (_req, res) => {
    res
      .type("application/javascript")
      .send(
        [
          'const fetcher = GraphiQL.createFetcher({ url: "/graphql", headers: { "apollo-require-preflight": "true" } });',
          `const defaultQuery = ${JSON.stringify(GRAPHIQL_DEFAULT_QUERY)};`,
          `const defaultHeaders = ${JSON.stringify(GRAPHIQL_DEFAULT_HEADERS)};`,
          'ReactDOM.createRoot(document.getElementById("graphiql")).render(React.createElement(GraphiQL, { fetcher, defaultQuery, defaultHeaders, defaultEditorToolsVisibility: true }));',
          "",
        ].join("\n"),
      );
  });
  router.get(
    "/react.js",
    sendFile(path.join(moduleDir("react"), "umd", "react.production.min.js")),
  );
  router.get(
    "/react-dom.js",
    sendFile(path.join(moduleDir("react-dom"), "umd", "react-dom.production.min.js")),
  );
  router.get("/graphiql.js", sendFile(path.join(moduleDir("graphiql"), "graphiql.min.js")));
  router.get("/graphiql.css", sendFile(path.join(moduleDir("graphiql"), "graphiql.min.css")));
  return router;
}

/** A browser opening /graphql gets the explorer; API clients (POST, or GET with a query) do not. */
export function graphiqlPageOf(options: ExplorerOptions = {}) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const wantsHtml =
      req.method === "GET" && req.accepts(["application/json", "text/html"]) === "text/html";
    if (!wantsHtml || req.query.query !== undefined) return next();
    sendPage(res, graphiqlHtml(options.banner));
  };
}

export const graphiqlPage = graphiqlPageOf();

function sendFile(file: string) {
  return (_req: Request, res: Response) => res.sendFile(file, { maxAge: "1d" });
}

function sendPage(res: Response, html: string): void {
  res.type("html").send(html);
}

/** Text only (no markup from callers), escaped; styled inline since the pages have no stylesheet of ours. */
function bannerHtml(banner: string | undefined): string {
  if (!banner) return "";
  const text = banner.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<div role="status" class="explorer-banner" style="padding:8px 16px;background:#b45309;color:#fff;font:600 14px/1.4 system-ui,sans-serif">${text}</div>`;
}

function swaggerPage(banner?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chaplaincy membership API: REST v1</title>
<link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="assets/swagger-ui.css"></head>
<body>${bannerHtml(banner)}<div id="swagger-ui"></div>
<script src="assets/swagger-ui-bundle.js"></script><script src="init.js"></script></body></html>`;
}

function graphiqlHtml(banner?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chaplaincy membership API: GraphQL</title>
<link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/graphql/assets/graphiql.css">
<style>body{margin:0;height:100vh;display:flex;flex-direction:column}#graphiql{flex:1;min-height:0}</style></head>
<body>${bannerHtml(banner)}<div id="graphiql">Loading…</div>
<script src="/graphql/assets/react.js"></script><script src="/graphql/assets/react-dom.js"></script>
<script src="/graphql/assets/graphiql.js"></script><script src="/graphql/assets/explorer.js"></script></body></html>`;
}
